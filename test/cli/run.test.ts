import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wireEventSchema } from '@agentstep/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/** One working directory for the file: its .agentstep/ holds the synthesis cache and the log. */
let cwd = '';
const file = (name: string, content: unknown) => {
  const path = join(cwd, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'agentstep-cli-'));
});

describe('agentstep run (the real binary)', () => {
  it('runs the demo agent: a parallel batch with one failure, a second step, a final answer', () => {
    const { status, stdout, stderr } = runCli(['run', '--store', 'memory'], '', cwd);
    expect(status).toBe(0);
    expect(stderr).toContain('the model is scripted (the demo script)');
    expect(stderr).toMatch(/no provider credentials found|credentials found for: /);
    // Completion order varies (the calls run in parallel); each outcome is reported once.
    for (const line of ['✓ #0 echo success', '✓ #1 sleep success', '✗ #2 fail failure'])
      expect(stdout).toContain(line);
    expect(stdout).toContain('results: 2 succeeded, 1 failed');
    expect(stdout).toContain('● model step 3\n  All done');
    expect(stdout).toContain('3 model steps, 4 tool calls, 19 state transitions in 1 execution(s)');
  });

  it('--json prints the spec events with their seq', () => {
    const { status, stdout } = runCli(['run', 'Hello', '--store', 'memory', '--json'], '', cwd);
    expect(status).toBe(0);
    const lines = jsonLines(stdout);
    const logged = lines.filter((line) => line.seq !== undefined);
    expect(logged.map((line) => line.seq)).toEqual(logged.map((_, index) => index + 1));
    expect(lines[0]).toMatchObject({ seq: 1, type: 'user', content: 'Hello' });
    expect(lines.filter((line) => line.type === 'metric')).toHaveLength(3);
    for (const { seq: _, ...event } of lines) expect(wireEventSchema.safeParse(event).success).toBe(true);
  });

  const costly = (text: string) => ({ chunks: [text], usage: { inputTokens: 700, outputTokens: 100 } });
  const echoes = Array.from({ length: 5 }, () =>
    costly('<execute>[{"name": "echo", "args": {"text": "x"}}]</execute>'),
  );

  it('a spent token budget ends the run with exit code 3, an error event naming it, and metrics that add up', () => {
    const script = file('costly.json', echoes);
    const { status, stdout } = runCli(
      ['run', '--script', script, '--max-tokens', '1500', '--store', 'memory', '--json'],
      '',
      cwd,
    );
    expect(status).toBe(3);
    const lines = jsonLines(stdout);
    expect(lines.filter((line) => line.type === 'metric').map((line) => line.total)).toEqual([
      { input: 700, output: 100 },
      { input: 1400, output: 200 },
    ]);
    expect(lines.at(-1)).toMatchObject({
      type: 'error',
      content: expect.stringContaining('The token budget is spent: 1600 of 1500 tokens used'),
    });
  });

  it('a cost budget uses --prices, and the live view shows each step’s cost', () => {
    const script = file('costly-2.json', echoes);
    const prices = file('prices.json', { scripted: { input: 100, output: 1000 } });
    const { status, stdout } = runCli(
      ['run', '--script', script, '--prices', prices, '--max-cost', '0.3', '--store', 'memory'],
      '',
      cwd,
    );
    expect(status).toBe(3);
    expect(stdout).toContain('700 tokens in, 100 out');
    expect(stdout).toContain('$0.1700 (session $0.3400)');
    expect(stdout).toContain('Stopped: The cost budget is spent: $0.3400 of $0.3 estimated');
  });

  it('ends with exit code 3 and an error event saying so when the step limit stops the run', () => {
    const script = file(
      'loop.json',
      Array.from({ length: 5 }, () => '<execute>[{"name": "echo", "args": {"text": "x"}}]</execute>'),
    );
    const { status, stdout } = runCli(
      ['run', '--script', script, '--max-steps', '2', '--store', 'memory', '--json'],
      '',
      cwd,
    );
    expect(status).toBe(3);
    expect(jsonLines(stdout).at(-1)).toMatchObject({
      type: 'error',
      content: expect.stringContaining('after 2 model steps'),
    });
  });

  it('ends with exit code 1 and one clear line when the turn fails', () => {
    const { status, stdout } = runCli(
      ['run', '--script', file('short.json', ['<execute>[]</execute>']), '--store', 'memory'],
      '',
      cwd,
    );
    expect(status).toBe(0);
    expect(stdout).toContain('1 model steps');
    const failed = runCli(
      [
        'run',
        '--script',
        file('empty-end.json', [['<execute>[{"name": "echo", "args": {"text": "a"}}]</execute>']]),
        '--store',
        'memory',
      ],
      '',
      cwd,
    );
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain('Failed: ScriptEnded: ');
    expect(failed.stdout).toContain('empty-end.json has 1 model steps, and step 2 of the turn was requested');
  });

  it.each([
    [['run', '--chaos', '2'], '--chaos must be a probability from 0 to 1'],
    [['run', '--tools', 'kitchen-sink'], 'Unknown toolset "kitchen-sink". Built-in toolsets: demo'],
    [
      ['run', '--model', 'gpt'],
      '--model must be "scripted", "replay" or one of "bedrock:<model>", "openai:<model>", "anthropic:<model>"',
    ],
    [['run', '--script', 'missing.json'], 'Cannot read missing.json (ENOENT)'],
    [['stats'], 'stats takes one session id'],
    [['run', '--max-cost', '1'], '--max-cost needs a price for scripted: add one with --prices FILE'],
    [['run', '--max-cost', 'lots'], '--max-cost must be a number, received "lots"'],
    [['run', '--max-cost', 'Infinity'], '--max-cost must be a number, received "Infinity"'],
    [['run', '--max-tokens', '0'], '--max-tokens must be a whole number greater than 0'],
    [['run', '--max-steps', '0x10'], '--max-steps must be a whole number, received "0x10"'],
    [['run', '--max-steps', '10001'], '--max-steps must be a whole number of at most 10000'],
    [['run', '--lease', '0'], '--lease must be a whole number from 1 to 86400'],
    [['run', '--mode', 'chunky'], '--mode must be "event" or "token"'],
    [['run', '--prices', 'missing-prices.json'], 'Cannot read missing-prices.json (ENOENT)'],
    [['run', '--session', ''], '--session must be 1 to 128 letters, digits, ".", "_" or "-"'],
    [['run', '--session', '..'], '--session must be 1 to 128 letters'],
    [['run', '--session', 'a/b'], 'received "a/b"'],
    [['run', '--seed', '3'], '--seed only applies with --chaos P'],
    [['run', '--record', '/proc/agentstep/x.json'], '--record: cannot write /proc/agentstep/x.json'],
    [['events', '.'], 'agentstep events: a session id is 1 to 128 letters'],
    [['context', '..'], 'agentstep context: a session id is 1 to 128 letters'],
  ])('rejects %j with exit 2 and the reason', (args, reason) => {
    const { status, stderr } = runCli(args, '', cwd);
    expect(status).toBe(2);
    expect(stderr).toContain(reason);
    expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('--record writes a cassette that --model replay plays back to the same log', () => {
    const cassette = join(cwd, 'demo-cassette.json');
    const recorded = runCli(['run', '--store', 'memory', '--json', '--record', cassette], '', cwd);
    const replayed = runCli(
      ['run', '--store', 'memory', '--json', '--model', 'replay', '--cassette', cassette],
      '',
      cwd,
    );
    expect(recorded.status).toBe(0);
    expect(replayed.status).toBe(0);
    const withoutTime = (stdout: string) =>
      jsonLines(stdout).map(({ timestamp: _, payload, ...event }) => {
        // Latency is measured, and the batch and the terminal record name the turn (a new id per run).
        const {
          latency_ms: __,
          batch: ___,
          turn: ____,
          ...rest
        } = (payload ?? {}) as Record<string, unknown>;
        return { ...event, payload: rest } as Record<string, unknown>;
      });
    expect(withoutTime(replayed.stdout)).toEqual(withoutTime(recorded.stdout));
    expect(withoutTime(replayed.stdout).filter((event) => event.type === 'call')).toHaveLength(4);
  });

  it('rejects an invalid script with what is wrong in it', () => {
    const { status, stderr } = runCli(['run', '--script', file('bad.json', [1])], '', cwd);
    expect(status).toBe(2);
    expect(stderr).toContain('bad.json is not valid');
  });
});

describe.skipIf(dynamoEndpoint === '')(
  'agentstep events, context and stats (DynamoDB Local kept in .agentstep/)',
  () => {
    it('read back what an earlier run wrote', () => {
      expect(runCli(['run', 'Check things', '--session', 'kept'], '', cwd).status).toBe(0);
      const events = runCli(['events', 'kept', '--json'], '', cwd);
      expect(events.status).toBe(0);
      expect(jsonLines(events.stdout).map((line) => line.type)).toEqual([
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
      const context = JSON.parse(runCli(['context', 'kept'], '', cwd).stdout) as Array<{
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
      const stats = JSON.parse(runCli(['stats', 'kept'], '', cwd).stdout);
      expect(stats).toEqual({
        turns: 1,
        tokens: { input: 0, output: 0 },
        costUsd: null,
        executions: 1,
        stateTransitions: 19,
        modelSteps: 3,
        toolCalls: 4,
        maxStatePayloadBytes: expect.any(Number),
        wallMs: expect.any(Number),
      });
    });

    it('plays a one-step script from its first step in every turn of a session', () => {
      const script = file('one.json', ['Done.']);
      for (const prompt of ['First', 'Second']) {
        const run = runCli(['run', prompt, '--session', 'scripted-twice', '--script', script], '', cwd);
        expect(run.stdout).not.toContain('ScriptEnded');
        expect(run.status).toBe(0);
      }
      const events = jsonLines(runCli(['events', 'scripted-twice', '--json'], '', cwd).stdout);
      expect(events.filter((event) => event.type === 'turn_end').map((event) => event.payload)).toMatchObject(
        [{ status: 'done' }, { status: 'done' }],
      );
    });

    it.each(['events', 'context'])('%s says so when a session has no events', (command) => {
      const { status, stdout, stderr } = runCli([command, 'never-ran'], '', cwd);
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain(`agentstep ${command}: session never-ran has no events`);
    });
  },
);
