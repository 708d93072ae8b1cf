import {
  AlreadyDecidedError,
  ApprovalArgsInvalidError,
  ApprovalNotFoundError,
  NoTurnRunningError,
  SessionBusyError,
  WorkflowSessionError,
} from '@agentstep/runtime';
import { ApiError } from './api-error.js';

/**
 * The API's answer to an error a runtime use case threw on `session` (the id the tenant sees, never
 * the stored one): the refusals a client can act on become an {@link ApiError} with the runtime's
 * error name as its code; anything else is returned as it is, a failure of the server.
 */
export function refusalOf(error: unknown, session: string): unknown {
  if (error instanceof SessionBusyError)
    return new ApiError(
      409,
      error.name,
      `Session ${session} is running a turn: wait for its stream's done event, or cancel it.`,
    );
  if (error instanceof NoTurnRunningError)
    return new ApiError(
      409,
      error.name,
      `Session ${session} has no turn running: there is nothing to cancel.`,
    );
  if (error instanceof ApprovalNotFoundError)
    return new ApiError(
      404,
      error.name,
      `Session ${session} has no approval by that id: GET /sessions/${session}/approvals lists the calls waiting for a decision.`,
    );
  if (error instanceof WorkflowSessionError) return workflowSessionRefusal(error, session);
  if (error instanceof AlreadyDecidedError) return new ApiError(409, error.name, error.message);
  if (error instanceof ApprovalArgsInvalidError)
    return new ApiError(400, error.name, error.message, error.problems.map(editedArgsProblem));
  return error;
}

/** 409 for a turn or cancel in a workflow run's session or a goal session of one, naming the run as its tenant does. */
function workflowSessionRefusal(error: WorkflowSessionError, session: string): ApiError {
  // The error names stored ids: the tenant's tag, then the ids the tenant knows.
  const run = error.run.slice(error.session.length - session.length);
  const what =
    run === session
      ? `Session ${session} is workflow run ${run}: the run alone writes its log.`
      : `Session ${session} is a goal session of workflow run ${run}: the run alone starts and ends its turns; reading it works as for any session.`;
  return new ApiError(
    409,
    error.name,
    `${what} Act on the run with the /workflows routes: GET /workflows/${run}, its stream, POST /workflows/${run}/gates/{gate}.`,
  );
}

/** A problem with edited arguments, at its place in the request body: `args.text`, or `args` itself. */
function editedArgsProblem({ path, message }: { path: string; message: string }) {
  // `validateArgs` names the arguments object as a whole `args` (unknown keys) or `arguments`.
  return { path: path === 'args' || path === 'arguments' ? 'args' : `args.${path}`, message };
}
