import type { StoredEvent } from '@agentstep/protocol';
import { startWindowServer, type WindowRequest, type WindowServer } from '@agentstep/runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type MemoryProject, memoryProject } from '../testing/memory-project.js';

const WINDOW = 8_000;
const SESSION = 's-long';

let server: WindowServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs one turn of the session on the project against the server, with the context flags. */
async function turn(project: MemoryProject, prompt: string, flags: string[], session = SESSION) {
  const model = server ? ['--model', 'openai:any-model', '--base-url', server.url] : [];
  const { status, stderr } = await project.run([
    ...['run', prompt, '--session', session, ...model, '--context-window', String(WINDOW)],
    ...['--max-steps', '100', '--json', ...flags],
  ]);
  expect(stderr).toBe('');
  return status;
}

const logOf = (project: MemoryProject, session = SESSION) => project.store.log.read(session);
/** A log as two runs of one script must agree on it: without times, durations, and turn ids (`turn`). */
const canonical = (log: readonly StoredEvent[]) =>
  log.map(({ seq, batch, event }) => {
    const { timestamp: _, ...rest } = event;
    if (rest.type === 'result') {
      const { durations_ms: __, ...counts } = rest.payload;
      rest.payload = counts;
    }
    return JSON.parse(JSON.stringify({ seq, batch, ...rest }).replace(/t-[0-9a-f-]+/g, 'turn'));
  });
const compactions = (log: readonly StoredEvent[]) => log.filter(({ event }) => event.type === 'compacted');
const turnEnds = (log: readonly StoredEvent[]) =>
  log.flatMap(({ event }) => (event.type === 'turn_end' ? [event.payload.status] : []));
const steps = (requests: readonly WindowRequest[]) =>
  requests.filter((request) => request.purpose === 'step' && !request.refused);

/** Whether every `<results>` message directly follows the assistant message with its `<execute>`. */
function resultsFollowTheirCalls({ messages }: WindowRequest): boolean {
  return messages.every(
    (message, index) =>
      !message.content.startsWith('<results>') ||
      (messages[index - 1]?.role === 'assistant' &&
        messages[index - 1]?.content.includes('<execute>') === true),
  );
}

/** Whether `later` begins with `earlier`'s messages, byte for byte: all equal, the last one extended at most. */
function beginsWith(later: WindowRequest, earlier: WindowRequest): boolean {
  const last = earlier.messages.length - 1;
  return earlier.messages.every((message, index) => {
    const same = later.messages[index];
    if (index < last) return JSON.stringify(same) === JSON.stringify(message);
    return same?.role === message.role && same.content.startsWith(message.content);
  });
}

/** Where a compaction came between two step requests: the summary standing first changed. */
const compactedBetween = (later: WindowRequest, earlier: WindowRequest) =>
  later.messages[1]?.content.startsWith('<summary>') === true &&
  later.messages[1]?.content !== earlier.messages[1]?.content;

/** Checks the acceptance on every request the server received and on the session's log. */
async function expectCompactedWithinTheWindow(project: MemoryProject, requests: readonly WindowRequest[]) {
  expect(Math.max(...requests.map((request) => request.tokens))).toBeLessThanOrEqual(WINDOW);
  const stepRequests = steps(requests);
  for (const request of stepRequests) expect(resultsFollowTheirCalls(request)).toBe(true);
  let across = 0;
  for (let index = 1; index < stepRequests.length; index++) {
    const [earlier, later] = [stepRequests[index - 1], stepRequests[index]];
    if (!earlier || !later) continue;
    if (compactedBetween(later, earlier)) across++;
    else expect(beginsWith(later, earlier)).toBe(true);
  }
  const log = await logOf(project);
  expect(across).toBe(compactions(log).length);
  return log;
}

describe('agentstep run --context-window: a long session against a provider with a window (issue 37)', () => {
  it.each(['summarize', 'drop'])(
    'with --compaction %s, 300 steps in three turns: no request over the window, never failed, compacted in its log',
    async (strategy) => {
      server = await startWindowServer({ stepsPerTurn: 99, blobBytes: 2_000, windowTokens: WINDOW });
      const project = memoryProject();
      for (const n of [1, 2, 3])
        expect(await turn(project, `Turn ${n}: fetch blobs.`, ['--compaction', strategy])).toBe(0);
      expect(steps(server.requests)).toHaveLength(300);
      const log = await expectCompactedWithinTheWindow(project, server.requests);
      expect(turnEnds(log)).toEqual(['done', 'done', 'done']);
      expect(compactions(log).length).toBeGreaterThan(10);
      expect(
        compactions(log).every(
          ({ event }) => event.type === 'compacted' && event.payload.strategy === strategy,
        ),
      ).toBe(true);
      expect(server.requests.some((request) => request.purpose === 'summary')).toBe(strategy === 'summarize');
    },
  );

  it('with --model scripted and --compaction drop, 300 steps in three turns never fail and compact', async () => {
    const script = [
      ...Array.from(
        { length: 99 },
        (_, n) => `<execute>[{"name":"blob","args":{"bytes":${2_000 + n}}}]</execute>`,
      ),
      'Done.',
    ];
    const project = memoryProject({ 'script.json': JSON.stringify(script) });
    for (const n of [1, 2, 3])
      expect(await turn(project, `Turn ${n}.`, ['--script', 'script.json', '--compaction', 'drop'])).toBe(0);
    const log = await logOf(project);
    expect(turnEnds(log)).toEqual(['done', 'done', 'done']);
    expect(log.filter(({ event }) => event.type === 'result')).toHaveLength(297);
    expect(compactions(log).length).toBeGreaterThan(10);
    const { stdout } = await project.run(['context', SESSION]);
    expect(stdout.length / 4).toBeLessThanOrEqual(WINDOW);
  });

  it('under --chaos 0.5, four seeds give the log of a run without chaos, compactions and all', async () => {
    const script = [
      ...Array.from(
        { length: 16 },
        (_, n) => `<execute>[{"name":"blob","args":{"bytes":${2_000 + n}}}]</execute>`,
      ),
      'Done.',
    ];
    const project = memoryProject({ 'script.json': JSON.stringify(script) });
    const runWith = async (session: string, chaos: string[]) => {
      const flags = ['--script', 'script.json', '--context-window', '4000', ...chaos];
      expect(await turn(project, 'Fetch blobs.', flags, session)).toBe(0);
      return canonical(await logOf(project, session));
    };
    const reference = await runWith('s-calm', []);
    expect(reference.filter((event) => event.type === 'compacted').length).toBeGreaterThanOrEqual(2);
    for (const seed of [1, 2, 3, 4])
      expect(await runWith(`s-chaos-${seed}`, ['--chaos', '0.5', '--seed', String(seed)])).toEqual(reference);
  });

  it('a fork at a seq before the first compaction sends the first turn’s text again, which the compacted session no longer does', async () => {
    server = await startWindowServer({ stepsPerTurn: 30, blobBytes: 2_000, windowTokens: WINDOW });
    const project = memoryProject();
    expect(await turn(project, 'Turn 1: the word is PELICAN.', [])).toBe(0);
    expect(await turn(project, 'Turn 2: fetch more.', [])).toBe(0);
    const log = await logOf(project);
    const first = compactions(log)[0]?.seq ?? 0;
    expect(first).toBeGreaterThan(0);
    const laterRequests = steps(server.requests).slice(-5);
    for (const request of laterRequests) expect(JSON.stringify(request.messages)).not.toContain('PELICAN');
    const at = log.find(({ seq, event }) => event.type === 'result' && seq < first)?.seq ?? 0;
    const forked = await project.run(['fork', SESSION, '--at', String(at), '--session', 's-fork']);
    expect(forked.status).toBe(0);
    const sent = server.requests.length;
    expect(await turn(project, 'Go on.', [], 's-fork')).toBe(0);
    expect(JSON.stringify(server.requests[sent]?.messages)).toContain('Turn 1: the word is PELICAN.');
  });

  it('a refusal for context_length_exceeded compacts once and takes the step again, and the turn goes on', async () => {
    server = await startWindowServer({
      stepsPerTurn: 12,
      blobBytes: 2_000,
      windowTokens: WINDOW,
      refuse: (n) => n === 4,
    });
    const project = memoryProject();
    expect(await turn(project, 'Fetch blobs.', [])).toBe(0);
    const refused = server.requests.findIndex((request) => request.refused);
    const after = server.requests.slice(refused + 1);
    const retried = after.findIndex((request) => request.purpose === 'step');
    expect(after.slice(0, retried).every((request) => request.purpose === 'summary')).toBe(true);
    const log = await logOf(project);
    expect(turnEnds(log)).toEqual(['done']);
    // The one compaction the refusal made stands first in the retried request.
    expect(after[retried]?.messages[1]?.content).toMatch(/^<summary>/);
    expect(compactions(log)).toHaveLength(1);
  });

  it('a provider that always refuses ends the turn failed within three further requests', async () => {
    server = await startWindowServer({
      stepsPerTurn: 12,
      blobBytes: 2_000,
      windowTokens: WINDOW,
      refuse: (n) => n >= 4,
    });
    const project = memoryProject();
    expect(await turn(project, 'Fetch blobs.', [])).toBe(1);
    const refused = server.requests.findIndex((request) => request.refused);
    expect(server.requests.length - refused - 1).toBeLessThanOrEqual(3);
    const log = await logOf(project);
    expect(log.at(-1)?.event).toMatchObject({
      type: 'turn_end',
      payload: { status: 'failed', error: 'ContextTooLong' },
    });
  });
});
