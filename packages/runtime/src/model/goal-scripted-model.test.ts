import { describe, expect, it } from 'vitest';
import { collectParts, collectStream } from '../testing/collect-stream.js';
import { GoalScriptedModel } from './goal-scripted-model.js';
import { scriptedSummary } from './scripted-summary.js';

const GOAL = '<workflow name="w">\n<current-goal id="g">\nDo it.\n</current-goal>\n</workflow>';

/** A step of the turn that runs goal `g`. */
const request = (step: number) => ({
  system: 'sys',
  messages: [{ role: 'user' as const, content: GOAL }],
  step,
  turnStep: step,
  stopSequences: ['</execute>'],
});

describe('GoalScriptedModel', () => {
  it('answers a compaction with the scripted summary and no usage, starting no run of the goal', async () => {
    const model = new GoalScriptedModel({ g: [['first step', 'second step']] });
    expect(await collectStream(model.stream(request(0)))).toEqual(['first step']);
    const compaction = { ...request(1), stopSequences: [], purpose: 'compaction' as const };
    expect(await collectParts(model.stream(compaction))).toEqual([scriptedSummary(compaction)]);
    // The goal has one run: had the compaction started another, this step would find none.
    expect(await collectStream(model.stream(request(1)))).toEqual(['second step']);
    expect(model.calls).toHaveLength(3);
  });

  it("goes on with its session's run once a summary has replaced the turn's message", async () => {
    const model = new GoalScriptedModel({ g: [['first step', 'second step']], '': ['another goal'] });
    const inSession = (step: number) => ({ ...request(step), session: 's' });
    expect(await collectStream(model.stream(inSession(0)))).toEqual(['first step']);
    const summarized = {
      ...inSession(1),
      messages: [
        { role: 'user' as const, content: '<summary>\nEvents 1–3 …\nThe goal began.\n</summary>' },
        { role: 'assistant' as const, content: 'first step' },
        { role: 'user' as const, content: '<results>\n[]\n</results>' },
      ],
    };
    expect(await collectStream(model.stream(summarized))).toEqual(['second step']);
    // A summary joined with a turn's own message: that message tells the goal (not the parent's '').
    const joined = {
      ...request(0),
      session: 't',
      messages: [{ role: 'user' as const, content: `<summary>\nx\n</summary>\n\n${GOAL}` }],
    };
    expect(await collectStream(model.stream(joined))).toEqual(['first step']);
  });
});
