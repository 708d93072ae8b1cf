import { InMemoryEventLog } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { InMemoryLiveSteps } from './in-memory-live-steps.js';
import type { LiveText } from './live-steps.js';

const user = { event: { type: 'user' as const, content: 'hi', timestamp: 1 } };

describe('InMemoryLiveSteps', () => {
  it('hands listeners the text of each step, parsed in token mode: no markup, numbered from 0 per step', () => {
    const live = new InMemoryLiveSteps();
    const got: LiveText[] = [];
    live.subscribe('s', (text) => got.push(text));
    for (const text of [
      '<thi',
      'nk>Let me',
      ' see</think>Hel',
      'lo<execute>[{"name":"a","args":{}}]</execute>',
    ])
      live.write({ session: 's', step: 0, text });
    live.write({ session: 's', step: 1, text: 'Done.<end>' });
    live.write({ session: 'other', step: 0, text: 'Not yours.' });
    expect(got.map(({ step, index, kind, text }) => ({ step, index, kind, text }))).toEqual([
      { step: 0, index: 0, kind: 'think', text: 'Let me' },
      { step: 0, index: 1, kind: 'think', text: ' see' },
      { step: 0, index: 2, kind: 'respond', text: 'Hel' },
      { step: 0, index: 3, kind: 'respond', text: 'lo' },
      { step: 1, index: 0, kind: 'respond', text: 'Done.' },
    ]);
  });

  it("tags each step's text with the log's last seq as the step began, from the log it watches", async () => {
    const live = new InMemoryLiveSteps();
    const log = live.watch(new InMemoryEventLog());
    const got: LiveText[] = [];
    const stop = live.subscribe('s', (text) => got.push(text));
    live.write({ session: 's', step: 0, text: 'Before.' });
    await log.acquireTurn('s', 't');
    await log.append({ session: 's', turn: 't', key: 'k1', events: [user, user], expectedSeq: 1 });
    live.write({ session: 's', step: 1, text: 'After.' });
    stop();
    live.write({ session: 's', step: 1, text: 'Unheard.' });
    expect(got.map(({ afterSeq, text }) => ({ afterSeq, text }))).toEqual([
      { afterSeq: 0, text: 'Before.' },
      { afterSeq: 2, text: 'After.' },
    ]);
  });
});
