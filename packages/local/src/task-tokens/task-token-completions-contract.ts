import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TaskTokenCompletions } from './task-token-completions.js';

const freshToken = () => `local:${randomUUID()}`;

/** The behaviour every {@link TaskTokenCompletions} adapter must have; each test uses its own tokens. */
export function describeTaskTokenCompletionsContract(
  adapter: string,
  createCompletions: () => TaskTokenCompletions,
): void {
  describe(`TaskTokenCompletions contract: ${adapter}`, () => {
    it('takes a completion once: a second take finds nothing', async () => {
      const completions = createCompletions();
      const token = freshToken();
      await completions.put(token, { status: 'succeeded', output: { approved: true } });
      expect(await completions.take(token)).toEqual({ status: 'succeeded', output: { approved: true } });
      expect(await completions.take(token)).toBeUndefined();
    });

    it('finds nothing for a token never completed', async () => {
      expect(await createCompletions().take(freshToken())).toBeUndefined();
    });

    it('gives back outputs and failures exactly as they were put, each under its own token', async () => {
      const completions = createCompletions();
      const sent = [
        { status: 'succeeded', output: { nested: [1, 2.5, null, '', { deep: false }] } },
        { status: 'succeeded', output: null },
        { status: 'failed', error: 'Denied', cause: 'not today' },
        { status: 'failed', error: 'Denied' },
      ] as const;
      const tokens = sent.map(freshToken);
      await Promise.all(sent.map((completion, index) => completions.put(tokens[index] ?? '', completion)));
      expect(await Promise.all(tokens.map((token) => completions.take(token)))).toEqual(sent);
    });

    it('replaces the completion of a token put twice', async () => {
      const completions = createCompletions();
      const token = freshToken();
      await completions.put(token, { status: 'succeeded', output: 1 });
      await completions.put(token, { status: 'succeeded', output: 2 });
      expect(await completions.take(token)).toEqual({ status: 'succeeded', output: 2 });
    });
  });
}
