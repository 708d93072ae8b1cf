import { MODEL_STEP_STATES, STATE_NAMES } from '@agentstep/protocol';
import { stateBytes } from '@agentstep/runtime';

/** What one local turn cost, as `agentstep stats` reports it. */
export interface RunStats {
  executions: number;
  stateTransitions: number;
  modelSteps: number;
  /** The calls the turn's batches ran: each once, however many times it was invoked (an approval's wait runs it twice). */
  toolCalls: number;
  /** The largest state input or output, in bytes of JSON: references only stay small. */
  maxStatePayloadBytes: number;
  wallMs: number;
}

/** Stats before anything ran. */
export function emptyStats(): RunStats {
  return {
    executions: 0,
    stateTransitions: 0,
    modelSteps: 0,
    toolCalls: 0,
    maxStatePayloadBytes: 0,
    wallMs: 0,
  };
}

/** An event of a local execution, as far as AgentStep reads it. */
export interface EngineEvent {
  type: string;
  state?: { name: string; input?: unknown; output?: unknown };
  /** The Map iteration an event belongs to. */
  index?: number;
  /** The Map state a `MapIterationStarted` (or other iteration event) belongs to. */
  parentState?: { name: string };
}

/** The UTF-8 size of the JSON a state was entered with or exited with; 0 for other events. */
export function statePayloadBytes(event: EngineEvent): number {
  const payload = event.type === 'StateEntered' ? event.state?.input : event.state?.output;
  return payload === undefined ? 0 : stateBytes(payload);
}

/** Counts one state entered or exited, whose payload has `payloadBytes`, into the stats. */
export function countState(stats: RunStats, event: EngineEvent, payloadBytes: number): void {
  // One iteration of RunTools is one call, whether InvokeTool ran once or again after an approval.
  if (event.type === 'MapIterationStarted' && event.parentState?.name === STATE_NAMES.runTools)
    stats.toolCalls++;
  const state = event.state;
  if (state === undefined) return;
  stats.maxStatePayloadBytes = Math.max(stats.maxStatePayloadBytes, payloadBytes);
  if (event.type === 'StateEntered') stats.stateTransitions++;
  if (event.type === 'StateExited' && MODEL_STEP_STATES.has(state.name) && tookModelStep(state.output))
    stats.modelSteps++;
}

/** ModelStep and AdvanceTurn hand on a `batch` exactly when they took a model step. */
function tookModelStep(output: unknown): boolean {
  if (typeof output !== 'object' || output === null) return false;
  // A spent budget ends the turn with `next: "limit"` before any model is called.
  return 'batch' in output && 'calls' in output && !('limit' in output);
}
