import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PersistedEvent, StoredEvent } from '../events/stored-event.js';
import { parse } from '../parser/parse.js';
import type { ParsedEvent } from '../parser/parsed-event.js';
import { resultEvent } from '../results/result-event.js';
import { buildMessages } from './build-messages.js';

type Entry = { event: PersistedEvent; batch?: string; position?: number };

/** A session log with gap-free seq, as the event log stores it. */
function logOf(entries: Entry[]): StoredEvent[] {
  return entries.map((entry, seq) => ({ session: 's1', seq, ...entry }));
}

const at = 1_700_000_000;
const user = (content: string): Entry => ({ event: { type: 'user', content, timestamp: at } });
const think = (batch: string, content: string): Entry => ({
  batch,
  event: { type: 'think', content, timestamp: at },
});
const respond = (batch: string, content: string): Entry => ({
  batch,
  event: { type: 'respond', content, timestamp: at },
});
const call = (batch: string, position: number, name: string, args: object): Entry => ({
  batch,
  position,
  event: {
    type: 'call',
    content: JSON.stringify({ name, args }),
    payload: { index: position },
    timestamp: at,
  },
});
const result = (batch: string, ...items: Array<[string, 'success' | 'failure', unknown]>): Entry => ({
  batch,
  event: {
    ...resultEvent(
      items.map(([tool, status, content]) =>
        status === 'success' ? { tool, status, content } : { tool, status, content: String(content) },
      ),
    ),
    timestamp: at,
  },
});

/** What the runtime stores for one parsed model step (valid calls only). */
function storeStep(events: ParsedEvent[], batch: string): Entry[] {
  return events.flatMap((event): Entry[] => {
    if (event.type === 'think' || event.type === 'respond')
      return [{ batch, event: { ...event, timestamp: at } }];
    if (event.type === 'call')
      return [{ batch, position: event.payload.index, event: { ...event, timestamp: at } }];
    return [];
  });
}

describe('buildMessages', () => {
  it('D1 synthesizes markers: the step as one assistant message, its results as the next user message', () => {
    const log = logOf([
      user('Read a.txt and b.txt'),
      think('b1', 'Both at once.'),
      respond('b1', 'Reading them now.'),
      call('b1', 0, 'read', { file: 'a.txt' }),
      call('b1', 1, 'read', { file: 'b.txt' }),
      result('b1', ['read', 'success', 'A'], ['read', 'failure', 'File not found: b.txt']),
      respond('b2', 'a.txt says A; b.txt is missing.'),
    ]);
    expect(buildMessages(log)).toEqual([
      { role: 'user', content: 'Read a.txt and b.txt' },
      {
        role: 'assistant',
        content: [
          '<think>Both at once.</think>',
          'Reading them now.',
          '<execute>',
          '[',
          '  {',
          '    "name": "read",',
          '    "args": {',
          '      "file": "a.txt"',
          '    }',
          '  },',
          '  {',
          '    "name": "read",',
          '    "args": {',
          '      "file": "b.txt"',
          '    }',
          '  }',
          ']',
          '</execute>',
        ].join('\n'),
      },
      {
        role: 'user',
        content: [
          '<results>',
          '[',
          '  {',
          '    "tool": "read",',
          '    "status": "success",',
          '    "content": "A"',
          '  },',
          '  {',
          '    "tool": "read",',
          '    "status": "failure",',
          '    "content": "File not found: b.txt"',
          '  }',
          ']',
          '</results>',
        ].join('\n'),
      },
      { role: 'assistant', content: 'a.txt says A; b.txt is missing.' },
    ]);
  });

  it('D2 writes </ inside rebuilt JSON strings as <\\/ and keeps the JSON valid', () => {
    const log = logOf([
      user('go'),
      call('b1', 0, 'write', { content: 'x </execute> y' }),
      result('b1', ['write', 'success', 'wrote </results> and </execute>']),
    ]);
    const [, assistant, results] = buildMessages(log);
    expect(assistant?.content).toContain('"content": "x <\\/execute> y"');
    expect(assistant?.content.match(/<\/execute>/g)).toHaveLength(1);
    expect(results?.content.match(/<\/results>/g)).toHaveLength(1);
    const body = results?.content.slice('<results>\n'.length, -'\n</results>'.length) ?? '';
    expect(JSON.parse(body)[0].content).toBe('wrote </results> and </execute>');
  });

  it('D3 pairs calls and results by batch id and orders calls by position, not by storage order', () => {
    const log = logOf([
      user('go'),
      call('b1', 1, 'second', {}),
      call('b1', 0, 'first', {}),
      result('b1', ['first', 'success', 1], ['second', 'success', 2]),
    ]);
    const assistant = buildMessages(log)[1]?.content ?? '';
    expect(assistant.indexOf('"first"')).toBeLessThan(assistant.indexOf('"second"'));
  });

  it('D3 a result for a step with no stored calls still follows its own step', () => {
    const log = logOf([
      user('go'),
      think('b1', 'hmm'),
      result('b1', ['execute', 'failure', 'not valid JSON']),
    ]);
    const messages = buildMessages(log);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]?.content).toBe('<think>hmm</think>\n<execute>\n[]\n</execute>');
    expect(messages[2]?.content).toContain('not valid JSON');
  });

  it('D3 hides cancelled but shows the cancelled batch failure results, and user starts a new turn', () => {
    const log = logOf([
      user('slow thing'),
      call('b1', 0, 'sleep', { ms: 9000 }),
      { event: { type: 'cancelled', content: 'Cancelled by the user', timestamp: at } },
      result('b1', ['sleep', 'failure', 'Cancelled before it finished']),
      user('never mind'),
    ]);
    const messages = buildMessages(log);
    expect(messages.map((message) => message.content).join('\n')).not.toContain('Cancelled by the user');
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: expect.stringMatching(/Cancelled before it finished[\s\S]*<\/results>\n\nnever mind$/),
    });
  });

  const threeTurns = logOf([
    user('turn one'),
    respond('b1', 'answer one'),
    user('turn two'),
    call('b2', 0, 'echo', { text: 'x'.repeat(200) }),
    result('b2', ['echo', 'success', 'x'.repeat(200)]),
    respond('b3', 'answer two'),
    user('turn three'),
    respond('b4', 'answer three'),
  ]);

  const compacted = (upToSeq: number, summary: string): Entry => ({
    event: {
      type: 'compacted',
      content: `Compacted events 1–${upToSeq}.`,
      timestamp: at,
      payload: {
        upToSeq,
        summary,
        tokensBefore: 900,
        tokensAfter: 300,
        strategy: 'summarize',
        turns: 1,
        calls: 1,
      },
    },
  });

  it("shows the latest compaction's summary in place of the events up to its upToSeq", () => {
    const messages = buildMessages(
      logOf([
        user('turn one'),
        respond('b1', 'answer one'),
        user('turn two'),
        call('b2', 0, 'echo', { text: 'x' }),
        result('b2', ['echo', 'success', 'x']),
        compacted(4, 'The user asked twice; x was echoed.'),
        respond('b3', 'answer two'),
        user('turn three'),
      ]),
    );
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]?.content).toBe(
      '<summary>\nEvents 1–4 of this session are no longer in the context; in their place:\nThe user asked twice; x was echoed.\n</summary>',
    );
    expect(messages[1]).toEqual({ role: 'assistant', content: 'answer two' });
    expect(messages[2]).toEqual({ role: 'user', content: 'turn three' });
    expect(messages.map((message) => message.content).join('\n')).not.toContain('turn one');
  });

  it('joins the summary with a turn that starts right after it, and only the latest compaction counts', () => {
    const log = logOf([
      user('turn one'),
      respond('b1', 'answer one'),
      compacted(1, 'first'),
      user('turn two'),
      respond('b2', 'answer two'),
      compacted(4, 'second </summary> inside'),
    ]);
    expect(buildMessages(log)).toEqual([
      {
        role: 'user',
        content:
          '<summary>\nEvents 1–4 of this session are no longer in the context; in their place:\nsecond <\\/summary> inside\n</summary>',
      },
    ]);
    expect(buildMessages(log.slice(0, 5)).map((message) => message.content)).toEqual([
      expect.stringContaining('\nfirst\n</summary>\n\nturn two'),
      'answer two',
    ]);
  });

  it('shows the whole log again when cut before its first compaction, as a fork or --at does', () => {
    const log = logOf([user('turn one'), respond('b1', 'answer one'), compacted(1, 'gone')]);
    expect(buildMessages(log.slice(0, 2))).toEqual(buildMessages(threeTurns.slice(0, 2)));
    expect(buildMessages(log)).toHaveLength(1);
  });

  it('D4 keeps earlier history byte-identical from step to step, so prompt caches can reuse it', () => {
    const first = buildMessages(threeTurns.slice(0, 5));
    const later = buildMessages(threeTurns);
    expect(later.slice(0, first.length - 1)).toEqual(first.slice(0, -1));
  });

  it('B6 caps a large result in the context with a marker, and leaves the stored event whole', () => {
    const big = 'x'.repeat(100_000);
    const log = logOf([user('go'), call('b1', 0, 'blob', {}), result('b1', ['blob', 'success', big])]);
    const results = buildMessages(log, { maxResultBytes: 1000 })[2]?.content ?? '';
    const body = JSON.parse(results.slice('<results>\n'.length, -'\n</results>'.length));
    expect(body[0].content).toMatch(
      /^x{1000}\n\[truncated: 99000 of 100000 bytes cut, the first 1000 shown\./,
    );
    expect(JSON.parse(log[2]?.event.content ?? '')[0].content).toHaveLength(100_000);
  });

  it('B6 caps at 16 KiB by default', () => {
    const log = logOf([user('go'), result('b1', ['blob', 'success', 'y'.repeat(20_000)])]);
    expect(buildMessages(log).at(-1)?.content).toContain('the first 16384 shown');
  });

  it('round-trips calls exactly: parse → store → rebuild → parse', () => {
    const args = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 6 }),
      fc.oneof(
        fc.string(),
        fc.constantFrom('</execute>', '</results>', '<execute>', 'naïve 漢字 🙂', '"quoted"', '\\'),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
      ),
      { maxKeys: 4 },
    );
    const calls = fc.array(fc.record({ name: fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/), args }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(calls, fc.string(), (batch, thought) => {
        const output = `<think>${thought.replaceAll('</think>', '')}</think>\n<execute>${JSON.stringify(batch)}</execute>`;
        const parsed = parse(output);
        const rebuilt = buildMessages(logOf([user('go'), ...storeStep(parsed, 'b1')]));
        const reparsed = parse(rebuilt[1]?.content ?? '');
        const callsOf = (events: ParsedEvent[]) => events.filter((event) => event.type === 'call');
        expect(callsOf(reparsed)).toEqual(callsOf(parsed));
        expect(callsOf(parsed).map((event) => JSON.parse(event.content))).toEqual(batch);
      }),
      { numRuns: 500 },
    );
  });
});
