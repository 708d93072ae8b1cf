import { beforeAll, describe, expect, it } from 'vitest';
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
      'turn_start',
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

  describe('context of a log that holds a compaction', () => {
    const SUMMARY = 'The user asked for three checks; one tool always fails.';

    type Message = { role: string; content: string };
    let context: (...args: string[]) => Promise<{ status: number; stderr: string; messages: Message[] }>;

    /** A session of one turn (13 events), then a compaction of it all (seq 14): `context` reads it. */
    beforeAll(async () => {
      const project = memoryProject();
      expect((await project.run(['run', 'Check things', '--session', 'kept'])).status).toBe(0);
      const { log } = project.store;
      await log.acquireTurn('kept', 'compacting');
      await log.append({
        session: 'kept',
        turn: 'compacting',
        key: 'compact:kept',
        release: true,
        events: [
          {
            event: {
              type: 'compacted',
              content: 'Compacted events 1–13.',
              timestamp: 1_700_000_000,
              payload: {
                upToSeq: 13,
                summary: SUMMARY,
                tokensBefore: 900,
                tokensAfter: 120,
                strategy: 'summarize',
                turns: 1,
                calls: 4,
              },
            },
          },
        ],
      });
      context = async (...args) => {
        const { status, stdout, stderr } = await project.run(['context', 'kept', ...args]);
        return { status, stderr, messages: status === 0 ? (JSON.parse(stdout) as Message[]) : [] };
      };
    });

    it('starts with the summary in place of the compacted events', async () => {
      const { status, messages } = await context();
      expect(status).toBe(0);
      expect(messages[0]?.role).toBe('user');
      expect(messages[0]?.content).toMatch(/^<summary>\n/);
      expect(messages[0]?.content).toContain(SUMMARY);
      expect(JSON.stringify(messages)).not.toContain('Check things');
    });

    it('--at SEQ before the compaction shows the events up to SEQ as they are', async () => {
      const { status, messages } = await context('--at', '13');
      expect(status).toBe(0);
      expect(messages[0]).toEqual({ role: 'user', content: 'Check things' });
      expect(JSON.stringify(messages)).not.toContain(SUMMARY);
      expect((await context('--at', '1')).messages).toEqual([{ role: 'user', content: 'Check things' }]);
      expect((await context('--at=14')).messages[0]?.content).toContain(SUMMARY);
    });

    it.each(['0', '15', '2.5', 'x', ''])(
      'refuses --at %j with exit 2, saying the log’s range',
      async (at) => {
        const { status, stderr } = await context('--at', at);
        expect(status).toBe(2);
        expect(stderr).toContain(
          `agentstep context: --at takes a seq of session kept's log, a whole number from 1 to 14; received "${at}".`,
        );
      },
    );
  });

  it('stats says so, exit 1, when no run of the session is recorded', async () => {
    const { status, stderr } = await memoryProject().run(['stats', 'never-ran']);
    expect(status).toBe(1);
    expect(stderr).toContain('agentstep stats: no local run of session never-ran is recorded');
  });
});
