import { ERROR_NAMES } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { workflowTestRun } from './workflow-test-run.test-helpers.js';

const INPUTS = `
NAME trip
INPUT city
INPUT days DEFAULT 2
INPUT mood DEFAULT "calm"
GOAL plan "Plan $days days in $city, $mood."
RUN go USING plan
`;

describe('startWorkflow', () => {
  it('applies the DEFAULT of every input not given, keeps those given, and records them with the spec', async () => {
    const flow = workflowTestRun(INPUTS);
    expect(await flow.start({ city: 'Porto', mood: 'busy' })).toEqual({
      city: 'Porto',
      days: '2',
      mood: 'busy',
    });
    const log = await flow.runLog();
    expect(log.inputs).toEqual({ city: 'Porto', days: '2', mood: 'busy' });
    expect(log.spec.name).toBe('trip');
  });

  it.each([
    [
      'an undeclared input',
      { city: 'Porto', weather: 'rain' },
      'Workflow trip declares no input weather; its inputs are: city, days, mood.',
    ],
    [
      'a missing input without DEFAULT',
      { days: '3' },
      'Workflow trip needs a value for input city (it has no DEFAULT).',
    ],
  ])('refuses %s and writes nothing', async (_, inputs, message) => {
    const flow = workflowTestRun(INPUTS);
    await expect(flow.start(inputs)).rejects.toMatchObject({
      name: ERROR_NAMES.invalidWorkflowInput,
      message,
    });
    expect(await flow.deps.log.read(flow.run)).toEqual([]);
  });

  it('starts a run once: a second start with other inputs changes nothing', async () => {
    const flow = workflowTestRun(INPUTS);
    await flow.start({ city: 'Porto' });
    const log = await flow.deps.log.read(flow.run);
    await flow.start({ city: 'Faro' });
    expect(await flow.deps.log.read(flow.run)).toEqual(log);
  });
});
