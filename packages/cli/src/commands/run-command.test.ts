import { wireEventSchema } from '@agentstep/protocol';
import {
  anthropicStream,
  cutReply,
  openAIStream,
  RECORDED_STREAMS,
  type RecordingServer,
  recordedFrames,
  sseReply,
  startRecordingServer,
} from '@agentstep/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';

/** A model step's output calling `echo` once. */
const ECHO_STEP = '<execute>[{"name": "echo", "args": {"text": "x"}}]</execute>';
/** Five steps calling `echo`, each counting 700 input and 100 output tokens. */
const COSTLY = JSON.stringify(
  Array.from({ length: 5 }, () => ({ chunks: [ECHO_STEP], usage: { inputTokens: 700, outputTokens: 100 } })),
);

describe('agentstep run', () => {
  it('--json prints the spec events with their seq', async () => {
    const { status, stdout } = await memoryProject().run(['run', 'Hello', '--store', 'memory', '--json']);
    expect(status).toBe(0);
    const lines = jsonLines(stdout);
    const logged = lines.filter((line) => line.seq !== undefined);
    expect(logged.map((line) => line.seq)).toEqual(logged.map((_, index) => index + 1));
    expect(lines[0]).toMatchObject({ seq: 1, type: 'user', content: 'Hello' });
    expect(lines.filter((line) => line.type === 'metric')).toHaveLength(3);
    for (const { seq: _, ...event } of lines) expect(wireEventSchema.safeParse(event).success).toBe(true);
  });

  it('a spent token budget ends the run with exit code 3, an error event naming it, and metrics that add up', async () => {
    const project = memoryProject({ 'costly.json': COSTLY });
    const args = ['run', '--script', 'costly.json', '--max-tokens', '1500', '--store', 'memory', '--json'];
    const { status, stdout } = await project.run(args);
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

  it('a cost budget uses --prices, and the live view shows each step’s cost', async () => {
    const prices = JSON.stringify({ scripted: { input: 100, output: 1000 } });
    const project = memoryProject({ 'costly.json': COSTLY, 'prices.json': prices });
    const { status, stdout } = await project.run([
      ...['run', '--script', 'costly.json', '--prices', 'prices.json'],
      ...['--max-cost', '0.3', '--store', 'memory'],
    ]);
    expect(status).toBe(3);
    expect(stdout).toContain('700 tokens in, 100 out');
    expect(stdout).toContain('$0.1700 (session $0.3400)');
    expect(stdout).toContain('Stopped: The cost budget is spent: $0.3400 of $0.3 estimated');
  });

  it('ends with exit code 3 and an error event saying so when the step limit stops the run', async () => {
    const project = memoryProject({ 'loop.json': JSON.stringify(Array(5).fill(ECHO_STEP)) });
    const args = ['run', '--script', 'loop.json', '--max-steps', '2', '--store', 'memory', '--json'];
    const { status, stdout } = await project.run(args);
    expect(status).toBe(3);
    expect(jsonLines(stdout).at(-1)).toMatchObject({
      type: 'error',
      content: expect.stringContaining('after 2 model steps'),
    });
  });

  it('ends with exit code 0 when the model answers with no call, 1 and one clear line when the turn fails', async () => {
    const project = memoryProject({
      'short.json': JSON.stringify(['<execute>[]</execute>']),
      'empty-end.json': JSON.stringify([[ECHO_STEP]]),
    });
    const short = await project.run(['run', '--script', 'short.json', '--store', 'memory']);
    expect(short.status).toBe(0);
    expect(short.stdout).toContain('1 model step, 0 tool calls');
    const failed = await project.run(['run', '--script', 'empty-end.json', '--store', 'memory']);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain('Failed: ScriptEnded: ');
    expect(failed.stdout).toContain('empty-end.json has 1 model steps, and step 2 of the turn was requested');
  });

  it('plays a one-step script from its first step in every turn of a session', async () => {
    const project = memoryProject({ 'one.json': JSON.stringify(['Done.']) });
    for (const prompt of ['First', 'Second']) {
      const run = await project.run(['run', prompt, '--session', 'scripted-twice', '--script', 'one.json']);
      expect(run.stdout).not.toContain('ScriptEnded');
      expect(run.status).toBe(0);
    }
    const events = jsonLines((await project.run(['events', 'scripted-twice', '--json'])).stdout);
    expect(events.filter((event) => event.type === 'turn_end').map((event) => event.payload)).toMatchObject([
      { status: 'done' },
      { status: 'done' },
    ]);
  });

  it('a stop request (Ctrl-C) cancels the turn while its calls run (exit 130): each call answered, the turn cancelled, the session usable', async () => {
    // Two calls that sleep the longest the tool allows: the stop comes long before they could end.
    const sleep = (value: string) => ({ name: 'sleep', args: { ms: 60_000, value } });
    const sleeps = `<execute>${JSON.stringify([sleep('a'), sleep('b')])}</execute>`;
    const project = memoryProject({
      'sleeps.json': JSON.stringify([sleeps]),
      'quick.json': '["Done.<end>"]',
    });
    const run = project.start(['run', '--session', 'stopped', '--script', 'sleeps.json', '--json']);
    await run.waitFor(({ stdout }) => (stdout.match(/"type":"call"/g)?.length === 2 ? true : undefined));
    run.stop();
    expect(await run.exited).toBe(130);
    expect(run.stderr()).toMatch(/turn t-\w+ was cancelled; session stopped is free for the next message/);

    expect(
      (await project.run(['run', 'Again', '--session', 'stopped', '--script', 'quick.json'])).status,
    ).toBe(0);
    const events = jsonLines((await project.run(['events', 'stopped', '--json'])).stdout);
    expect(events.map((event) => event.type)).toEqual([
      'user',
      'turn_start',
      'call',
      'call',
      'result',
      'cancelled',
      'turn_end',
      'user',
      'turn_start',
      'respond',
      'turn_end',
    ]);
    expect(JSON.parse(String(events[4]?.content)).map((item: { status: string }) => item.status)).toEqual([
      'failure',
      'failure',
    ]);
    expect(events.filter((event) => event.type === 'turn_end').map((event) => event.payload)).toMatchObject([
      { status: 'cancelled' },
      { status: 'done' },
    ]);
    expect((await project.run(['events', 'stopped'])).stdout).toMatch(
      /^ {3}6 cancelled {2}Cancelled by the user\.$/m,
    );
  });

  it('--record writes a cassette that --model replay plays back to the same log', async () => {
    const project = memoryProject();
    const recorded = await project.run(['run', '--store', 'memory', '--json', '--record', 'demo.json']);
    const replay = ['run', '--store', 'memory', '--json', '--model', 'replay', '--cassette', 'demo.json'];
    const replayed = await project.run(replay);
    expect(recorded.status).toBe(0);
    expect(replayed.status).toBe(0);
    const withoutTime = (stdout: string) =>
      jsonLines(stdout).map(({ timestamp: _, payload, content, ...event }) => {
        // Latency and calls' durations are measured, the batch and the turn's records name the turn
        // (a new id per run), and the turn's start names the version (its model is another).
        const {
          latency_ms: __,
          durations_ms: _____,
          batch: ___,
          turn: ____,
          version: ______,
          ...rest
        } = (payload ?? {}) as Record<string, unknown>;
        const named = event.type === 'turn_start' ? {} : { content };
        return { ...event, ...named, payload: rest } as Record<string, unknown>;
      });
    expect(withoutTime(replayed.stdout)).toEqual(withoutTime(recorded.stdout));
    expect(withoutTime(replayed.stdout).filter((event) => event.type === 'call')).toHaveLength(4);
  });

  it('rejects an invalid script with what is wrong in it (exit 2)', async () => {
    const { status, stderr } = await memoryProject({ 'bad.json': '[1]' }).run([
      'run',
      '--script',
      'bad.json',
    ]);
    expect(status).toBe(2);
    expect(stderr).toContain('bad.json is not valid');
  });

  it('refuses a --record file it cannot write before running (exit 2)', async () => {
    const io = memoryIo();
    const readOnly = { ...io, writeFile: () => Promise.reject(new Error('EACCES: permission denied')) };
    expect(await main(['run', '--store', 'memory', '--record', '/proc/agentstep/x.json'], readOnly)).toBe(2);
    expect(io.err.join('')).toContain('--record: cannot write /proc/agentstep/x.json (EACCES');
    expect(io.out).toEqual([]);
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
    [['events', '.'], 'agentstep events: a session id is 1 to 128 letters'],
    [['context', '..'], 'agentstep context: a session id is 1 to 128 letters'],
  ])('rejects %j with exit 2 and the reason, without a stack trace', async (args, reason) => {
    const { status, stdout, stderr } = await memoryProject().run(args);
    expect(status).toBe(2);
    expect(stderr).toContain(reason);
    expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
    expect(stdout).toBe('');
  });
});

/** The parts of a Chat Completions or Messages request these tests read. */
type ProviderRequest = {
  messages: Array<{ role: string; content: string | Array<{ text: string }> }>;
  system: string | Array<{ text: string }>;
  stop?: string[];
  stop_sequences?: string[];
  stream: boolean;
};

const PROVIDER_OUTPUTS = [
  // The server stops at </execute> (a stop sequence), as a real one does: the closer never arrives.
  '<think>One echo.</think>\n<execute>[{"name": "echo", "args": {"text": "hi from the server"}}]\n',
  'The echo said "hi from the server".',
] as const;
const pieces = (text: string) => text.match(/.{1,7}/gs) ?? [];

/** What an OpenAI-compatible server streams for one completion, usage frame included. */
const completion = (text: string) =>
  openAIStream(pieces(text), {
    usage: { prompt_tokens: 900, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 512 } },
  });

/** What Anthropic's Messages API streams for one message, stop sequence and usage included. */
const message = (text: string, stopSequence: string | null) =>
  anthropicStream(pieces(text), {
    stopSequence,
    usage: {
      input_tokens: 300,
      output_tokens: 40,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 600,
    },
  });

const textOf = (content: string | Array<{ text: string }> | undefined) =>
  typeof content === 'string' ? content : (content ?? []).map((block) => block.text).join('');

describe('agentstep run against a provider’s streaming API on 127.0.0.1 (--base-url)', () => {
  let server: RecordingServer;

  beforeAll(async () => {
    server = await startRecordingServer(sseReply('unexpected request'));
  });
  afterAll(() => server.close());

  /** Runs one tool-using turn against the server; returns what it printed and the requests it sent. */
  async function runAgainstServer(model: string, baseUrl: string, extra: string[] = []) {
    const args = ['run', 'Echo something', '--model', model, '--base-url', baseUrl, '--store', 'memory'];
    const { status, stdout, stderr } = await memoryProject().run([...args, '--json', ...extra]);
    expect(stderr).not.toContain('Error');
    expect(status).toBe(0);
    const requests = server.bodies.map((body) => JSON.parse(body) as ProviderRequest);
    expect(requests).toHaveLength(2);
    return { lines: jsonLines(stdout), requests };
  }

  it('openai: completes a tool-using run, streaming tokens (--mode token); requests carry the system prompt, the rebuilt messages, the stop sequences and stream: true', async () => {
    server.reset();
    server.replies.push(...PROVIDER_OUTPUTS.map((output) => sseReply(completion(output))));
    const { lines, requests } = await runAgainstServer('openai:local-model', `${server.url}/v1`, [
      '--mode',
      'token',
    ]);
    expect(lines.filter((line) => line.seq !== undefined).map((line) => line.type)).toEqual([
      'user',
      'turn_start',
      'call',
      'result',
      'turn_end',
    ]);
    const streamed = (type: string) => lines.filter((line) => line.type === type).map((line) => line.content);
    expect(streamed('think').length).toBeGreaterThan(1);
    expect(streamed('think').join('')).toBe('One echo.');
    expect(streamed('respond').join('')).toBe('The echo said "hi from the server".');
    const metric = [
      { input: 900, output: 40 },
      expect.objectContaining({ model: 'openai:local-model', cache_read: 512 }),
    ];
    expect(lines.filter((line) => line.type === 'metric').map((line) => [line.step, line.payload])).toEqual([
      metric,
      metric,
    ]);
    const [first, second] = requests;
    expect(first?.stream).toBe(true);
    expect(first?.stop).toEqual(['</execute>', '<end>']);
    expect(first?.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('## echo') });
    expect(first?.messages[1]).toEqual({ role: 'user', content: 'Echo something' });
    expect(second?.messages.at(-1)?.content).toContain('"content": "hi from the server"');
    expect(second?.messages.at(-2)?.content).toContain('</execute>');
  });

  it('anthropic: completes a tool-using run; requests carry the system prompt, the rebuilt messages, the stop sequences and stream: true', async () => {
    server.reset();
    server.replies.push(
      sseReply(message(PROVIDER_OUTPUTS[0], '</execute>')),
      sseReply(message(PROVIDER_OUTPUTS[1], null)),
    );
    const { lines, requests } = await runAgainstServer('anthropic:claude-test', server.url);
    expect(lines.map((line) => line.type)).toEqual([
      'user',
      'turn_start',
      'think',
      'call',
      'metric',
      'result',
      'respond',
      'metric',
      'turn_end',
    ]);
    expect(lines.find((line) => line.type === 'metric')).toMatchObject({
      step: { input: 900, output: 40 },
      payload: { model: 'anthropic:claude-test', cache_read: 600, cache_write: 0 },
    });
    const [first, second] = requests;
    expect(first?.stream).toBe(true);
    expect(first?.stop_sequences).toEqual(['</execute>', '<end>']);
    expect(textOf(first?.system)).toContain('## echo');
    expect(first?.messages[0]).toMatchObject({ role: 'user', content: [{ text: 'Echo something' }] });
    expect(textOf(second?.messages.at(-1)?.content)).toContain('"content": "hi from the server"');
    expect(textOf(second?.messages.at(-2)?.content)).toContain('</execute>');
  });

  /** Runs one `Echo` turn on `openai:m` at `baseUrl`, with `extra` flags. */
  const runOpenAI = (baseUrl: string, ...extra: string[]) =>
    memoryProject().run([
      'run',
      'Echo',
      '--model',
      'openai:m',
      '--base-url',
      baseUrl,
      '--store',
      'memory',
      ...extra,
    ]);

  it('says once, not per step, that a model with no known window is not compacted; not with --context-window', async () => {
    const notice =
      'agentstep: no context window is known for openai:m, so its context is not compacted: set --context-window TOKENS (or context.windowTokens in the agent file).\n';
    const noticesIn = (stderr: string) => stderr.split(notice).length - 1;
    server.reset();
    server.replies.push(...PROVIDER_OUTPUTS.map((output) => sseReply(completion(output))));
    const unknown = await runOpenAI(`${server.url}/v1`);
    expect(unknown.status).toBe(0);
    expect(server.bodies).toHaveLength(2);
    expect(noticesIn(unknown.stderr)).toBe(1);
    server.reset();
    server.replies.push(...PROVIDER_OUTPUTS.map((output) => sseReply(completion(output))));
    const given = await runOpenAI(`${server.url}/v1`, '--context-window', '200000');
    expect(given.status).toBe(0);
    expect(given.stderr).not.toContain('no context window is known');
  });

  it('a tool step closed at </execute> by a server that ignores stop records the usage the server reported; --max-tokens stops the turn at the right step', async () => {
    server.reset();
    // Each step: a call, its closer, then text the server went on with, then the usage frame.
    const ignoring = `${ECHO_STEP}\n<results>invented by the model</results>`;
    const costly = openAIStream(pieces(ignoring), { usage: { prompt_tokens: 700, completion_tokens: 100 } });
    server.replies.push(...Array.from({ length: 3 }, () => sseReply(costly)));
    const { status, stdout } = await runOpenAI(`${server.url}/v1`, '--max-tokens', '1500', '--json');
    expect(status).toBe(3);
    const lines = jsonLines(stdout);
    expect(lines.filter((line) => line.type === 'metric').map((line) => line.step)).toEqual([
      { input: 700, output: 100 },
      { input: 700, output: 100 },
    ]);
    expect(lines.at(-1)).toMatchObject({
      type: 'error',
      content: expect.stringContaining('The token budget is spent: 1600 of 1500 tokens used'),
    });
    expect(server.bodies).toHaveLength(2);
  });

  it('a step whose server reports no usage has a metric saying usage unknown, and a token budget stops the turn after it', async () => {
    server.reset();
    server.replies.push(sseReply(openAIStream(pieces(ECHO_STEP))));
    const { status, stdout } = await runOpenAI(`${server.url}/v1`, '--max-tokens', '100000', '--json');
    expect(status).toBe(3);
    const lines = jsonLines(stdout);
    const metrics = lines.filter((line) => line.type === 'metric');
    expect(metrics).toHaveLength(1);
    expect(metrics[0]?.payload).toMatchObject({ usage: 'unknown' });
    expect(metrics[0]?.payload).not.toHaveProperty('cost_usd');
    expect(lines.at(-1)).toMatchObject({
      type: 'error',
      content: expect.stringContaining('the provider reported no usage for 1 model step(s)'),
    });
    expect(server.bodies).toHaveLength(1);
  });

  it('retries a step whose stream failed with a retryable error mid-way (an error chunk, a cut), and the turn goes on', async () => {
    server.reset();
    const overloaded = `data: ${JSON.stringify({ error: { message: 'Provider returned error', code: 502 } })}\n\n`;
    const partial = openAIStream(['Do']).split('data: ').slice(0, 3).join('data: ');
    server.replies.push(
      sseReply(`${partial}${overloaded}`),
      cutReply(partial),
      sseReply(openAIStream(['Done.'])),
    );
    const { status, stdout } = await runOpenAI(`${server.url}/v1`, '--json');
    expect(status).toBe(0);
    expect(jsonLines(stdout).filter((line) => line.type === 'respond')).toMatchObject([{ content: 'Done.' }]);
    expect(server.bodies).toHaveLength(3);
  });

  it('a step of native tool-call deltas alone is an empty step: asked once more, then the turn fails with EmptyModelOutput', async () => {
    server.reset();
    const recorded = new URL('openai-compatible/deepseek-tool-call-only.chunks.txt', RECORDED_STREAMS);
    const toolCallsOnly = Buffer.concat(recordedFrames('openai', recorded)).toString();
    server.replies.push(sseReply(toolCallsOnly), sseReply(toolCallsOnly));
    const { status, stdout, stderr } = await runOpenAI(`${server.url}/v1`, '--json');
    expect(status).toBe(1);
    expect(jsonLines(stdout).filter((line) => line.type === 'turn_end')).toMatchObject([
      { payload: { status: 'failed', error: 'EmptyModelOutput' } },
    ]);
    expect(server.bodies).toHaveLength(2);
    expect(`${stdout}${stderr}`).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('with nothing listening on the base URL, fails in one line naming ModelUnavailable, the URL and the cause, after its retries', async () => {
    const { status, stdout, stderr } = await runOpenAI('http://127.0.0.1:9/v1');
    expect(status).toBe(1);
    const failures = stdout.split('\n').filter((line) => line.includes('ModelUnavailable'));
    expect(failures).toEqual([
      expect.stringContaining('ModelUnavailable: cannot connect to http://127.0.0.1:9/v1: bad port'),
    ]);
    expect(`${stdout}${stderr}`).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
