import { STEP_CAPS } from '@agentstep/protocol';
import { measureStepMemory, type StepShape } from './measure-step-memory.js';
import { atMost, row } from './row.js';

/** Issue 38: a step of 90 MB took 1.5–1.9 GB; refused at the byte cap, it must stay well under that. */
const FLOOD_BYTES = 90 * 1024 * 1024;
const TARGET_MB = 500;
const MB = 1024 * 1024;

const SHAPES: ReadonlyArray<[StepShape, string]> = [
  ['think', 'one <think>'],
  ['argument', "one call's argument"],
  ['calls', 'calls of 1 MB'],
];

console.log('Peak RSS of one model step (a provider streaming 64 KiB chunks; in-memory stores; own process)');
console.log(`Cap on a step's text: ${STEP_CAPS.outputBytes / MB} MiB (decision 0012)`);
for (const [shape, label] of SHAPES) {
  const { failure, maxRss, baseRss } = await measureStepMemory(shape, FLOOD_BYTES);
  const refused = failure?.includes("bytes of text, the protocol's cap per model step") ?? false;
  const target = atMost(maxRss / MB, TARGET_MB, ' MB');
  target.met &&= refused;
  const figure = `${(maxRss / MB).toFixed(0)} MB`;
  console.log(row(`90 MiB, ${label}: ${refused ? 'refused' : 'NOT REFUSED'}`, figure, target));
  console.log(`      (${(baseRss / MB).toFixed(0)} MB before the step)`);
}
// The largest step taken whole: what the cap leaves one step to cost.
for (const [shape, label] of SHAPES) {
  const { next, maxRss } = await measureStepMemory(shape, STEP_CAPS.outputBytes - 1024);
  console.log(row(`16 MiB less 1 KiB, ${label}: next ${next}`, `${(maxRss / MB).toFixed(0)} MB`));
}
