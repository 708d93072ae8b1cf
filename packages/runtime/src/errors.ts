import { ERROR_NAMES } from '@agentstep/protocol';

/** Another turn holds the session's lease: one writer per session, nothing was interleaved. */
export class SessionBusyError extends Error {
  override readonly name = ERROR_NAMES.sessionBusy;

  /** @param leaseUntil when the holder's lease expires, in ms since the epoch, if known */
  constructor(session: string, holder: string | undefined, turn: string, leaseUntil?: number) {
    super(
      holder === undefined
        ? `Turn ${turn} does not hold session ${session}: start the turn before appending to it.`
        : `Session ${session} is busy with turn ${holder}${leaseUntil === undefined ? '' : ` (its lease runs until ${new Date(leaseUntil).toISOString()})`}; turn ${turn} must wait until that turn ends or its lease expires, or take the session over if that turn is dead.`,
    );
  }
}

/** An append kept losing the race for the next seq; retrying the step is safe. */
export class AppendConflictError extends Error {
  override readonly name = ERROR_NAMES.appendConflict;

  constructor(session: string, attempts: number) {
    super(`Append to session ${session} lost the race for the next seq ${attempts} times; retry the step.`);
  }
}

/** A step was asked to act on a call the log does not hold. */
export class CallNotFoundError extends Error {
  override readonly name = ERROR_NAMES.callNotFound;

  constructor(session: string, batch: string, position: number, seq: number) {
    super(`Session ${session} has no call ${position} of batch ${batch} at seq ${seq}.`);
  }
}

/** The model returned nothing in a step and nothing again when asked once more: the turn fails. */
export class EmptyModelOutputError extends Error {
  override readonly name = ERROR_NAMES.emptyModelOutput;

  /** @param batches the empty step and the step that asked again */
  constructor(turn: string, batches: readonly [string, string]) {
    super(
      `The model returned nothing (no thought, prose or call) in step ${batches[0]} of turn ${turn}, and nothing again when asked once more (step ${batches[1]}), so the turn has no answer. Send the message again; if this repeats, check the model's settings (its output token limit) or use another model.`,
    );
  }
}

/** A cancel found no turn holding the session: nothing to stop. */
export class NoTurnRunningError extends Error {
  override readonly name = ERROR_NAMES.noTurnRunning;

  constructor(session: string) {
    super(`Session ${session} has no turn running: there is nothing to cancel.`);
  }
}

/**
 * A call that needs approval does not wait: its approval was settled before its task started
 * waiting (decided, cancelled), so the map goes straight on to run or fail it.
 */
export class ApprovalSettledError extends Error {
  override readonly name = ERROR_NAMES.approvalSettled;

  constructor(session: string, approval: string) {
    super(`Approval ${approval} of session ${session} is already settled: the call does not wait.`);
  }
}

/** The session has no approval by that id (or it belongs to another tenant's session). */
export class ApprovalNotFoundError extends Error {
  override readonly name = ERROR_NAMES.approvalNotFound;

  constructor(session: string, approval: string) {
    super(`Session ${session} has no approval ${approval}.`);
  }
}

/** A decision on an approval that was already decided, or ended without one. */
export class AlreadyDecidedError extends Error {
  override readonly name = ERROR_NAMES.alreadyDecided;

  constructor(approval: string, status: string) {
    super(`Approval ${approval} is already settled (${status}): a call is decided once.`);
  }
}

/** A call's approval is not settled yet: it must not run; its map item waits for a decision. */
export class ApprovalRequiredError extends Error {
  override readonly name = ERROR_NAMES.approvalRequired;

  constructor(session: string, approval: string) {
    super(`The call of approval ${approval} in session ${session} waits for a decision before it runs.`);
  }
}

/** An execution's input is not a turn request: says which field is wrong, and how. */
export class InvalidTurnRequestError extends Error {
  override readonly name = ERROR_NAMES.invalidTurnRequest;
}

/** No workflow run by that id: its log holds no `start` record. */
export class WorkflowNotFoundError extends Error {
  override readonly name = ERROR_NAMES.workflowNotFound;

  constructor(run: string) {
    super(`There is no workflow run ${run}.`);
  }
}

/** A workflow run's inputs do not match its INPUT statements: says which, and what it needs. */
export class InvalidWorkflowInputError extends Error {
  override readonly name = ERROR_NAMES.invalidWorkflowInput;
}

/**
 * A turn asked for (or a cancel) in a workflow run's own session or in one of its goal sessions:
 * the run alone starts and ends their turns. `run` is the run the session belongs to.
 */
export class WorkflowSessionError extends Error {
  override readonly name = ERROR_NAMES.workflowSession;
  readonly session: string;
  readonly run: string;

  constructor(session: string, run: string) {
    super(
      session === run
        ? `Session ${session} is workflow run ${run}: the run alone writes its log. Follow or answer it as a workflow run instead.`
        : `Session ${session} is a goal session of workflow run ${run}: the run alone starts and ends its turns. Read it as any session; follow or answer the run as a workflow run instead.`,
    );
    this.session = session;
    this.run = run;
  }
}

/** The run has no human gate by that id. */
export class GateNotFoundError extends Error {
  override readonly name = ERROR_NAMES.gateNotFound;

  constructor(run: string, gate: string) {
    super(`Workflow run ${run} has no human gate ${gate}.`);
  }
}

/** A human gate answered before its task started waiting: the run goes straight on. */
export class GateSettledError extends Error {
  override readonly name = ERROR_NAMES.gateSettled;

  constructor(run: string, gate: string) {
    super(`Human gate ${gate} of workflow run ${run} is already answered: nothing waits.`);
  }
}

/** An answer at a human gate already answered (or expired): a gate is answered once. */
export class GateAnsweredError extends Error {
  override readonly name = ERROR_NAMES.alreadyDecided;

  constructor(gate: string, status: string) {
    super(`Human gate ${gate} is already answered (${status}): a gate is answered once.`);
  }
}

/** A turn asked for a model profile the deployment does not configure: no step of it can run. */
export class UnknownModelProfileError extends Error {
  override readonly name = ERROR_NAMES.unknownModelProfile;

  constructor(session: string, profile: string, configured: readonly string[]) {
    const known = configured.length === 0 ? 'none' : configured.map((name) => `"${name}"`).join(', ');
    super(
      `Session ${session}'s turn asks for model profile "${profile}", which is not configured (configured profiles: ${known}). Configure it: --model-profile ${profile}=MODEL locally, modelProfiles on the AgentStep construct.`,
    );
  }
}

/**
 * The store cannot be reached, or keeps failing after the client's own retries (a connection
 * refused or reset, a timeout, a server error or throttling): nothing is known to be written, and
 * the same request may succeed later. The store's own error is its `cause`.
 */
export class StoreUnavailableError extends Error {
  override readonly name = ERROR_NAMES.storeUnavailable;

  constructor(reason: string, options?: ErrorOptions) {
    super(`The store is unavailable (${reason}); try again shortly.`, options);
  }
}

/**
 * A fork would create a session that already exists: forks only make new sessions. Only a retry
 * of the fork that made it passes (`EventLog.fork`): the same origin, the fork untouched since or
 * the request's key the same.
 */
export class SessionExistsError extends Error {
  override readonly name = ERROR_NAMES.sessionExists;

  constructor(session: string, options?: ErrorOptions) {
    super(
      `Session ${session} already exists: fork into a new session id, or leave the id out to get one. Forking into the same id again is a retry only while that fork has no events of its own and no turn holding it, or with the key it was made with.`,
      options,
    );
  }
}

/**
 * A fork point that is not a turn's end or a batch's results (or is past the log's end): `allowed`
 * holds the nearest allowed seqs before and after it, when the log has them.
 */
export class InvalidForkPointError extends Error {
  override readonly name = ERROR_NAMES.invalidForkPoint;

  constructor(
    session: string,
    readonly at: number,
    readonly allowed: readonly number[],
  ) {
    super(
      allowed.length === 0
        ? `Session ${session} has no point to fork at yet: a fork starts after a turn's end or a batch's results.`
        : `Session ${session} cannot be forked at seq ${at}: fork at a turn's end or a batch's results; the nearest such seqs are ${allowed.join(' and ')}.`,
    );
  }
}

/**
 * A tool definition `defineTool` cannot make a tool of (its name, description, input schema or
 * handler): thrown when the tool is defined, naming the tool (`tool`, as given) and the rule broken.
 */
export class InvalidToolError extends Error {
  override readonly name = 'InvalidToolError';

  constructor(
    readonly tool: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`Tool "${tool}": ${message}`, options);
  }
}

/** The sizes, in estimated tokens, of a request that cannot fit its model's window even compacted. */
export interface OverflowSizes {
  model: string;
  window: number;
  /** The system prompt, with the tools it describes. */
  system: number;
  /** What stands for the older part: a summary's budget, or a note. */
  summary: number;
  /** The newest exchange, which a compaction never cuts: the turn's message, or the latest step and its results. */
  newest: number;
}

/**
 * Even the newest part of the context, which compaction keeps whole, does not fit the model's
 * context window (decision 0035): the turn fails, as no compaction can make the request fit.
 */
export class ContextOverflowError extends Error {
  override readonly name = ERROR_NAMES.contextOverflow;

  constructor(
    readonly sizes: OverflowSizes,
    options?: ErrorOptions,
  ) {
    const { model, window, system, summary, newest } = sizes;
    super(
      `The next request to ${model} needs about ${system + summary + newest} tokens even with the older context compacted (system prompt and tools ${system}, summary ${summary}, newest exchange ${newest}), over its window of ${window} tokens. A compaction never cuts the newest exchange (the turn's message, or the latest step with its results): have the tools return less, give a larger window (context.windowTokens, --context-window) if the model has one, or start a new session.`,
      options,
    );
  }
}
