import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { jsonLines, runCli, startCli } from '../support/run-cli.js';

const TRIP = `NAME trip-planner
AGENT optimist "You see what is good."
AGENT critic "You see what can go wrong." -> risk
GOAL brainstorm "List three things to do in Lisbon." -> top
GOAL evaluate "Evaluate a day built around $top." USING optimist, critic
CONVERGE itinerary "Write a one-day itinerary that avoids $risk." WITHIN 3
RUN plan USING brainstorm, evaluate, itinerary
`;

/** The first process: goals 1 and 2 answer, goal 3's first run sleeps (60 s, the longest) until the process is killed. */
const BEFORE = {
  brainstorm: ['Tram 28, Belém, fado. {"top": "tram 28"}<end>'],
  'evaluate[optimist]': ['Great views.<end>'],
  'evaluate[critic]': ['Crowds. {"risk": "noon crowds"}<end>'],
  itinerary: [[batch(['sleep', { ms: 60_000, value: 'z' }]), 'never<end>']],
};

/** The resumed process scripts goal 3 only: running goal 1 or 2 again would end its script. */
const AFTER = { itinerary: ['Tram at 8, Belém, fado.<end>', 'CONVERGED<end>'] };

describe.skipIf(dynamoEndpoint === '')('agentstep workflow resume', () => {
  it('runs a run killed in goal 3 on from its log, without running goals 1 and 2 again', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-workflow-resume-'));
    writeFileSync(join(cwd, 'trip.agentfile'), TRIP);
    writeFileSync(join(cwd, 'before.json'), JSON.stringify(BEFORE));
    writeFileSync(join(cwd, 'after.json'), JSON.stringify(AFTER));
    const first = startCli(['workflow', 'run', 'trip.agentfile', '--script', 'before.json'], { cwd });
    await first.waitFor(({ stderr }) =>
      /itinerary iteration 1 … \(session/.test(stderr) ? true : undefined,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const stderr = first.stderr();
    const run = /run (wf-\S+)/.exec(stderr)?.[1] ?? '';
    expect(stderr).toContain('✓ goal evaluate[critic]');

    const resumed = await runCli(['workflow', 'resume', run, '--script', 'after.json'], { cwd });
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(jsonLines(resumed.stdout)).toEqual([
      { run, status: 'done', message: 'All 3 goal runs completed.' },
    ]);

    const events = await runCli(['events', run, '--json'], { cwd });
    const records = jsonLines(events.stdout).map((line) => line.payload as Record<string, unknown>);
    const runs = records.filter((record) => record.kind === 'run');
    const label = (record: Record<string, unknown>) =>
      `${record.goal}${record.agent ? `[${record.agent}]` : ''}`;
    expect(runs.map(label)).toEqual([
      'brainstorm',
      'evaluate[optimist]',
      'evaluate[critic]',
      'itinerary', // the killed one
      'itinerary',
      'itinerary',
    ]);
    const ends = records
      .filter((record) => record.kind === 'output')
      .map((record) => [label(record), record.status]);
    expect(ends.slice(3)).toEqual([
      ['itinerary', 'abandoned'],
      ['itinerary', 'done'],
      ['itinerary', 'done'],
    ]);
    const context = await runCli(['workflow', 'context', run, 'itinerary'], { cwd });
    expect(context.stdout).toContain('<iteration n="1">\nTram at 8, Belém, fado.\n    </iteration>');
  });
});
