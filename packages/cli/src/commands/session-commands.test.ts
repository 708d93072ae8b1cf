import { describe, expect, it } from 'vitest';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';

describe('agentstep events, context and stats', () => {
  it('read back what an earlier run of the project wrote', async () => {
    const project = memoryProject();
    expect((await project.run(['run', 'Check things', '--session', 'kept'])).status).toBe(0);
    const events = await project.run(['events', 'kept', '--json']);
    expect(events.status).toBe(0);
    expect(jsonLines(events.stdout).map((event) => event.type)).toEqual([
      'user',
      'think',
      'respond',
      'call',
      'call',
      'call',
      'result',
      'think',
      'call',
      'result',
      'respond',
      'turn_end',
    ]);
    const context = JSON.parse((await project.run(['context', 'kept'])).stdout) as Array<{
      role: string;
      content: string;
    }>;
    expect(context.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(context[2]?.content).toContain('"content": "this tool always fails"');
    expect(JSON.parse((await project.run(['stats', 'kept'])).stdout)).toEqual({
      turns: 1,
      tokens: { input: 0, output: 0 },
      costUsd: null,
      executions: 1,
      stateTransitions: 17,
      modelSteps: 3,
      toolCalls: 4,
      maxStatePayloadBytes: expect.any(Number),
      wallMs: expect.any(Number),
    });
  });

  it.each(['events', 'context'])('%s says so, exit 1, when a session has no events', async (command) => {
    const { status, stdout, stderr } = await memoryProject().run([command, 'never-ran']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`agentstep ${command}: session never-ran has no events`);
  });

  it('stats says so, exit 1, when no run of the session is recorded', async () => {
    const { status, stderr } = await memoryProject().run(['stats', 'never-ran']);
    expect(status).toBe(1);
    expect(stderr).toContain('agentstep stats: no local run of session never-ran is recorded');
  });
});
