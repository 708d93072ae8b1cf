import { fileURLToPath } from 'node:url';
import { readUntil } from '@agentstep/runtime/testing';
import { describe, expect, it, vi } from 'vitest';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';
import { listeningUrl } from '../testing/start-command.js';

const fixture = (file: string) => fileURLToPath(new URL(`../testing/fixtures/${file}`, import.meta.url));
const COUNTER = fixture('counter-agent.ts');
const CANNED = fixture('canned-agent.ts');
const DEMO = fileURLToPath(new URL('../../../../examples/demo/agent.ts', import.meta.url));

/** The outcomes of a run's `result` lines, and its answers. */
function turnOf(stdout: string) {
  const lines = jsonLines(stdout);
  const ofType = (type: string) => lines.filter((line) => line.type === type).map((line) => line.content);
  return {
    results: ofType('result').flatMap((content) => JSON.parse(String(content))),
    answers: ofType('respond'),
    end: lines.find((line) => line.type === 'turn_end')?.payload,
  };
}

describe('agentstep commands with an agent file', () => {
  it("run: the agent's own tool runs, played by the agent's script (relative to its file)", async () => {
    const { status, stdout, stderr } = await memoryProject().run([
      ...['run', 'Count: one two three', '--agent', COUNTER, '--store', 'memory', '--json'],
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(turnOf(stdout)).toMatchObject({
      results: [{ tool: 'word_count', status: 'success', content: { words: 3 } }],
      answers: ['There are 3 words.'],
      end: { status: 'done' },
    });
  });

  it('run: names the agent in its notices; --script and --tools override the file, its own tools stay', async () => {
    const script = JSON.stringify([
      '<execute>[{"name": "word_count", "args": {"text": "a b"}}, {"name": "echo", "args": {"text": "hi"}}]</execute>',
      'Done.',
    ]);
    const { status, stdout, stderr } = await memoryProject({ 'mine.json': script }).run([
      ...['run', '--agent', COUNTER, '--script', 'mine.json', '--tools', 'demo', '--store', 'memory'],
    ]);
    expect(status).toBe(0);
    expect(stderr).toContain(`agentstep: agent counter (${COUNTER})\n`);
    expect(stderr).toContain('the model is scripted (mine.json)');
    // Each call's line once it ends, in whichever order they end.
    expect(stdout).toContain('✓ #0 word_count success\n');
    expect(stdout).toContain('✓ #1 echo success\n');
    expect(stdout).toContain('Done.');
  });

  it("run: the model comes from the agent's own provider, and --model overrides it", async () => {
    const project = memoryProject();
    const own = await project.run(['run', 'Count', '--agent', CANNED, '--store', 'memory', '--json']);
    expect(own.status).toBe(0);
    expect(turnOf(own.stdout)).toMatchObject({
      results: [{ tool: 'word_count', content: { words: 4 } }],
      answers: ['Counted by canned:m1.'],
    });
    const flag = await project.run([
      ...['run', 'Count', '--agent', CANNED, '--model', 'canned:m2', '--store', 'memory', '--json'],
    ]);
    expect(turnOf(flag.stdout).answers).toEqual(['Counted by canned:m2.']);
  });

  it("run: --script without --model plays the script, not the agent's provider", async () => {
    const { status, stdout } = await memoryProject({ 'mine.json': '["Scripted."]' }).run([
      ...['run', 'Count', '--agent', CANNED, '--script', 'mine.json', '--store', 'memory', '--json'],
    ]);
    expect(status).toBe(0);
    expect(turnOf(stdout).answers).toEqual(['Scripted.']);
  });

  it("run: the agent's instructions open the system prompt, its tool's argument described by the user's zod", async () => {
    const { status, stdout } = await memoryProject().run([
      ...['run', 'Count', '--agent', fixture('echo-agent.ts'), '--store', 'memory', '--json'],
    ]);
    expect(status).toBe(0);
    expect(turnOf(stdout).answers).toEqual([
      'First line: You count words for the user, with word_count. Argument described: true.',
    ]);
  });

  it("run: the tool checks the model's arguments with the user's zod schema", async () => {
    const script = JSON.stringify([
      '<execute>[{"name": "word_count", "args": {"text": ""}}]</execute>',
      'No.',
    ]);
    const { stdout } = await memoryProject({ 'empty.json': script }).run([
      ...['run', '--agent', COUNTER, '--script', 'empty.json', '--store', 'memory', '--json'],
    ]);
    const [result] = turnOf(stdout).results;
    expect(result).toMatchObject({ tool: 'word_count', status: 'failure' });
    expect(result.content).toContain('text');
  });

  it('invoke: the execution runs the agent file', async () => {
    const { status, stdout } = await memoryProject().run([
      ...['invoke', '--input', '{"message": "Count"}', '--agent', CANNED, '--store', 'memory'],
    ]);
    expect(status).toBe(0);
    expect(jsonLines(stdout)[0]).toMatchObject({ status: 'done', answer: 'Counted by canned:m1.' });
  });

  it("serve: a turn POSTed to the API runs on the agent's provider and tools", async () => {
    const serving = memoryProject().start(['serve', '--port', '0', '--agent', CANNED, '--store', 'memory']);
    try {
      const url = await serving.waitFor(listeningUrl);
      const posted = await fetch(`${url}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Count' }),
      });
      const { session } = (await posted.json()) as { session: string };
      type Logged = { type: string; content: string };
      const events = await readUntil(
        async () =>
          ((await (await fetch(`${url}/sessions/${session}/events`)).json()) as { events: Logged[] }).events,
        (logged) => logged.some((event) => event.type === 'turn_end'),
      );
      expect(events.filter((event) => event.type === 'respond').map((event) => event.content)).toEqual([
        'Counted by canned:m1.',
      ]);
      expect(events.find((event) => event.type === 'result')?.content).toContain('{"words":4}');
      expect(serving.stderr()).toContain(`agent canned-counter (${CANNED})`);
    } finally {
      serving.stop();
    }
    expect(await serving.exited).toBe(0);
  });

  it("approve: edited arguments are checked by the agent file's own tool, which runs with them", async () => {
    const project = memoryProject();
    const run = project.start([
      ...[
        'run',
        'Count',
        '--agent',
        COUNTER,
        '--approve',
        'word_count',
        '--session',
        'waits',
        '--mode',
        'event',
      ],
    ]);
    const id = await run.waitFor(({ stdout }) => /waits for approval \(id (\S+)\)/.exec(stdout)?.[1]);
    const refused = await project.run(['approve', 'waits', id, '--agent', COUNTER, '--args', '{"text": 3}']);
    expect(refused.stderr).toMatch(
      /^agentstep approve: ValidationError: Invalid arguments for word_count: text: /,
    );
    const edited = ['approve', 'waits', id, '--agent', COUNTER, '--args', '{"text": "a b c d e"}'];
    expect((await project.run(edited)).status).toBe(0);
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toMatch(/✓ #0 word_count approved by \S+ with \{"text":"a b c d e"\}/);
    const events = jsonLines((await project.run(['events', 'waits', '--json'])).stdout);
    expect(events.find((event) => event.type === 'result')?.content).toContain('{"words":5}');
  });

  it("workflow run: a goal's agent runs on the profile the agent file configures, on its provider", async () => {
    const workflow = [
      'NAME review',
      'AGENT judge "You judge." REQUIRES "smart"',
      'GOAL verdict "Judge it." USING judge',
      'RUN r USING verdict',
      '',
    ];
    const project = memoryProject({ Agentfile: workflow.join('\n') });
    const { status, stdout, stderr } = await project.run([
      ...['workflow', 'run', 'Agentfile', '--agent', fixture('profiled-agent.ts'), '--store', 'memory'],
    ]);
    expect(stderr).toContain(`agentstep workflow: agent reviewer (${fixture('profiled-agent.ts')})`);
    expect(stderr).toContain('✓ goal verdict[judge]: Counted by canned:judge.');
    expect(jsonLines(stdout)).toEqual([expect.objectContaining({ status: 'done' })]);
    expect(status).toBe(0);
  });

  it('refuses an --agent file that is not there, exit 2, naming it', async () => {
    const { status, stderr } = await memoryProject().run([
      'run',
      '--agent',
      'nowhere/agent.ts',
      '--store',
      'memory',
    ]);
    expect(status).toBe(2);
    expect(stderr).toContain('agentstep run: --agent nowhere/agent.ts: there is no such file');
  });

  it('a bad schema names the tool: one line, exit 2, the stack only with AGENTSTEP_DEBUG=1', async () => {
    const file = fixture('bad-schema-agent.ts');
    const run = () => memoryProject().run(['run', 'Shout', '--agent', file, '--store', 'memory']);
    const reason = `agentstep run: ${file}: cannot load the agent's file (Tool "shout": input must be a zod object schema, z.object({ ... }) of zod 4 (import * as z from 'zod'); received a string schema).`;
    const plain = await run();
    expect(plain.status).toBe(2);
    expect(plain.stderr).toBe(`${reason}\nRun "agentstep --help" for usage.\n`);
    vi.stubEnv('AGENTSTEP_DEBUG', '1');
    try {
      const debugged = await run();
      expect(debugged.status).toBe(2);
      const message = reason.slice('agentstep run: '.length);
      expect(debugged.stderr.split('\n').slice(0, 3)).toEqual([
        reason,
        'Run "agentstep --help" for usage.',
        `UsageError: ${message}`,
      ]);
      // The cause's stack runs through defineTool to the agent's file, where the tool is defined.
      expect(debugged.stderr).toContain('\nCaused by: InvalidToolError: Tool "shout": input must be');
      expect(debugged.stderr).toMatch(/\n\s+at defineTool \(.*define-tool\.ts/);
      expect(debugged.stderr).toMatch(/\n\s+at .*bad-schema-agent\.ts/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('run --agent examples/demo/agent.ts runs the turn `agentstep run` runs', async () => {
    const shape = (stdout: string) =>
      jsonLines(stdout)
        .filter((line) => line.type !== 'metric')
        // The two agents' versions differ (the file has its own instructions): the turn's start is one either way.
        .map(({ type, content }) => ({
          type,
          content: type === 'turn_end' || type === 'turn_start' ? '' : content,
        }));
    const project = memoryProject();
    const plain = await project.run(['run', 'Hi', '--store', 'memory', '--json']);
    const demo = await project.run(['run', 'Hi', '--agent', DEMO, '--store', 'memory', '--json']);
    expect(demo.status).toBe(plain.status);
    expect(shape(demo.stdout)).toEqual(shape(plain.stdout));
    expect(shape(demo.stdout).length).toBeGreaterThan(3);
  });
});
