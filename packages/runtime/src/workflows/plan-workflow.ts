import { failed, type Plan } from './plan.js';
import { planGoal } from './plan-goal.js';
import { type RunLog, recordsOf } from './run-log.js';
import { nextSlot } from './workflow-slots.js';

/**
 * What a workflow run does next, from its log alone (so a crashed or redriven run goes on where it
 * stopped): nothing once it ended; else the next goal slot's plan; else the run's end.
 */
export function planWorkflow(log: RunLog): Plan {
  const end = recordsOf(log, 'end').at(0);
  if (end !== undefined) return { kind: 'ended', record: end };
  const slot = nextSlot(log);
  if (slot === undefined) {
    const goals = new Set(recordsOf(log, 'goal').map(({ record }) => record.slot)).size;
    return {
      kind: 'record',
      records: [{ record: { kind: 'end', status: 'done' }, content: `All ${goals} goal runs completed.` }],
    };
  }
  if ('error' in slot) return failed(slot.error, slot.message);
  return planGoal(log, slot);
}
