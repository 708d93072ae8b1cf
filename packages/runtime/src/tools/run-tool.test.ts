import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool } from './define-tool.js';
import { demoTools } from './demo-tools.js';
import { MAX_TOOL_OUTPUT_BYTES, runTool } from './run-tool.js';

const context = { session: 's', turn: 't', batch: 'b', position: 0 };
const demo = (name: string) => demoTools.find((tool) => tool.name === name) ?? expect.unreachable();

describe('runTool', () => {
  it('returns the output as a success', async () => {
    expect(await runTool(demo('echo'), { text: 'hi' }, context)).toEqual({
      tool: 'echo',
      status: 'success',
      content: 'hi',
    });
  });

  it('B4 turns a throw into a failure with its message', async () => {
    expect(await runTool(demo('fail'), { message: 'boom' }, context)).toEqual({
      tool: 'fail',
      status: 'failure',
      content: 'boom',
    });
  });

  it.each([
    [true, 'slow did not finish within 20 ms and was stopped.'],
    [false, 'outcome unknown: slow did not finish within 20 ms and was stopped; it may have had its effect.'],
  ])(
    'B4 stops a call at its time limit and aborts its signal (idempotent: %s)',
    async (idempotent, content) => {
      let aborted = false;
      const slow = defineTool({
        name: 'slow',
        description: 'Never finishes on its own.',
        input: z.object({}),
        timeoutMs: 20,
        idempotent,
        handler: (_args, { signal }) =>
          new Promise(() =>
            signal.addEventListener('abort', () => {
              aborted = true;
            }),
          ),
      });
      expect(await runTool(slow, {}, context)).toEqual({
        tool: 'slow',
        status: 'failure',
        content,
      });
      expect(aborted).toBe(true);
    },
  );

  it("gives the handler the call's idempotency key, <session>:<batch>:<position>", async () => {
    const keyed = defineTool({
      name: 'keyed',
      description: 'Returns its key.',
      input: z.object({}),
      handler: (_args, { idempotencyKey }) => idempotencyKey,
    });
    expect(await runTool(keyed, {}, { ...context, position: 3 })).toMatchObject({ content: 's:b:3' });
  });

  it('B4 refuses an output that is not JSON', async () => {
    const bigint = defineTool({ name: 'big', description: 'x', input: z.object({}), handler: () => 10n });
    const outcome = await runTool(bigint, {}, context);
    expect(outcome).toMatchObject({ status: 'failure', content: expect.stringContaining('not JSON') });
  });

  it('keeps a success with no output as null', async () => {
    const quiet = defineTool({
      name: 'quiet',
      description: 'x',
      input: z.object({}),
      handler: () => undefined,
    });
    expect(await runTool(quiet, {}, context)).toEqual({ tool: 'quiet', status: 'success', content: null });
  });

  it('stores an output as large as the cap, and fails one a byte larger naming the cap', async () => {
    const json = (bytes: number) => runTool(demo('blob'), { bytes: bytes - 2 }, context); // two quotes
    expect(await json(MAX_TOOL_OUTPUT_BYTES)).toMatchObject({ status: 'success' });
    expect(await json(MAX_TOOL_OUTPUT_BYTES + 1)).toEqual({
      tool: 'blob',
      status: 'failure',
      content: `blob returned ${MAX_TOOL_OUTPUT_BYTES + 1} bytes of JSON, over the cap of ${MAX_TOOL_OUTPUT_BYTES} bytes a call's output may store: ask for less, such as a part or a summary.`,
    });
  });

  it('fails the demo blob at its documented maximum, 64 MiB, at once rather than by a time-out', async () => {
    const outcome = await runTool(demo('blob'), { bytes: 64 * 1024 * 1024 }, context);
    expect(outcome).toMatchObject({ status: 'failure', content: expect.stringContaining('over the cap') });
  });

  it('blob returns exactly the requested size', async () => {
    const outcome = await runTool(demo('blob'), { bytes: 1000 }, context);
    expect(typeof outcome.content === 'string' && outcome.content.length).toBe(1000);
  });
});
