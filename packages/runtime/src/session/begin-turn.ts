import { randomUUID } from 'node:crypto';
import type { TurnInput } from '@agentstep/protocol';
import type { LeaseOptions } from '../event-log/event-log.js';
import type { AppendResultsDeps } from '../steps/append-results.js';
import { endTurn } from '../steps/end-turn.js';
import { submitTurn } from '../steps/submit-turn.js';
import { refuseWorkflowSession } from '../workflows/refuse-workflow-session.js';
import type { ExecutionStarter } from './execution-starter.js';

/** A new turn as a client asks for it: a prompt, for a session or a new one, with optional limits. */
export interface TurnRequest {
  /** @default a new session */
  session?: string;
  prompt: string;
  /** Instructions the turn's system prompt starts with (a sub-agent's persona). @default none */
  instructions?: string;
  /** The turn's limits, budget and tool execution, as its execution's input carries them. */
  limits?: Omit<TurnInput, 'session' | 'turn'>;
  lease?: LeaseOptions;
}

/** A turn that was submitted and whose execution started. */
export interface BegunTurn {
  session: string;
  turn: string;
  execution: string;
  /** The turn it took the session over from, closed in the log. */
  previous?: string;
}

/** Where ids come from, so tests can fix them. */
export interface IdSource {
  session(): string;
  turn(): string;
}

/** Random, short ids: `s-1a2b3c4d` and `t-5e6f7a8b`. */
export const randomIds: IdSource = {
  session: () => `s-${randomUUID().slice(0, 8)}`,
  turn: () => `t-${randomUUID().slice(0, 8)}`,
};

/**
 * Starts a turn for any entry point (CLI, HTTP API, EventBridge target): names it, submits it
 * (lease and user message) and starts its execution. If the execution cannot start, the turn ends
 * in the log as failed and the session is freed before the error leaves. A workflow run's session
 * or one of its goal sessions is refused with WorkflowSessionError: the run writes them alone.
 */
export async function beginTurn(
  request: TurnRequest,
  deps: AppendResultsDeps & { starter: ExecutionStarter; ids?: IdSource },
): Promise<BegunTurn> {
  const ids = deps.ids ?? randomIds;
  const session = request.session ?? ids.session();
  await refuseWorkflowSession(session, deps);
  const turn = ids.turn();
  const { prompt, instructions, lease } = request;
  const { previous } = await submitTurn(
    {
      session,
      turn,
      prompt,
      ...(instructions === undefined ? {} : { instructions }),
      ...(lease ? { lease } : {}),
    },
    deps,
  );
  try {
    const execution = await deps.starter.start({ ...request.limits, session, turn });
    return { session, turn, execution, ...(previous ? { previous } : {}) };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    await endTurn(
      { session, turn, status: 'failed', message: `The turn's execution did not start: ${reason}` },
      deps,
    );
    throw error;
  }
}
