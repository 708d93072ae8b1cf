/**
 * For your agent's tests: `runAgent`, one turn of an agent on the embedded engine with a scripted
 * model; `runEval`, cases exported from real sessions replayed with a candidate agent and scored. For tests that run `agentstep` commands in-process: an in-memory IO whose store and stop
 * requests the test controls, and the store a local run opens on a DynamoDB it is given; for them
 * and tests of the binary, waits on a running command's output and its `--json` lines.
 */

export {
  type CaseResult,
  type CaseRun,
  defineScorer,
  type EvalCase,
  type EvalResults,
  type RecordedCall,
  type Scorer,
} from '../eval/eval-case.js';
export { type RunEvalOptions, runEval } from '../eval/run-eval.js';
export { type MemoryIo, type MemoryIoOptions, memoryIo } from '../io/memory-io.js';
export { dynamoDbStore, type OpenStore, type StoreKind } from '../local/open-store.js';
export { jsonLines } from './json-lines.js';
export { type OutputWaits, outputWaits, type PrintedOutput } from './output-waits.js';
export {
  type AgentRun,
  type AgentRunResult,
  type RunAgentApproval,
  type RunAgentOptions,
  runAgent,
} from './run-agent.js';
export { listeningUrl, type RunningCommand, startCommand } from './start-command.js';
