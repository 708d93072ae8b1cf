import { turnResultSchema } from '@agentstep/protocol';
import { eventBridgeHandler, type HandlerDeps } from '@agentstep/runtime/lambda';
import { type ExportTurnTracesDeps, exportTurnTraces } from '@agentstep/runtime/otel';

/**
 * ExportTraces, an EventBridge target (decision 0047): a turn's end was announced (`Agent Turn
 * Completed` or `Agent Turn Failed`); that turn's spans, derived from its session's log and usage
 * ledger, go to the deployment's collector. A detail that is no turn result fails validation; a
 * failing read or export throws, for Lambda's asynchronous invocation to retry.
 */
export const createHandler = (deps: ExportTurnTracesDeps & HandlerDeps) =>
  eventBridgeHandler(turnResultSchema, exportTurnTraces, deps);
