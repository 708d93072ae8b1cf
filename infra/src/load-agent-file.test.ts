import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAgentFile } from './load-agent-file.js';
import { WORD_COUNT_MARKER } from './testing/counter-agent/agent.js';

describe('loadAgentFile', () => {
  it('loads the default export of a TypeScript agent file, its tools and providers working', async () => {
    const agent = loadAgentFile(fileURLToPath(new URL('testing/counter-agent/agent.ts', import.meta.url)));
    expect(agent).toMatchObject({ name: 'counter', model: 'echo:v1', toolsets: ['http'] });
    const [wordCount] = agent.tools;
    expect(await wordCount?.handler({ text: 'one two three' }, {} as never)).toEqual({
      words: 3,
      by: WORD_COUNT_MARKER,
    });
    expect(agent.providers[0]?.model('v1', {}).id).toBe('echo:v1');
  });

  it('names the file and what to fix when its default export is not an agent', () => {
    const file = fileURLToPath(new URL('testing/not-an-agent.ts', import.meta.url));
    expect(() => loadAgentFile(file)).toThrow(
      'AgentStep prop agent: could not load an agent from ' +
        file +
        ' (its default export, made by defineAgent from @agentstep/runtime): Invalid agent definition: name: must be 1–64 letters',
    );
  });
});
