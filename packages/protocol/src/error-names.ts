/**
 * Names of the errors that leave a step and that the state machine routes on. The CDK `Retry` and
 * `Catch` lists use these constants, so a handler's error and its route cannot drift apart.
 */
export const ERROR_NAMES = {
  /** Another turn holds the session; nothing was written. */
  sessionBusy: 'SessionBusy',
  /** An append kept losing a race for the next seq; safe to retry. */
  appendConflict: 'AppendConflict',
  /** A step was asked to act on a call the log does not hold: a broken invariant. */
  callNotFound: 'CallNotFound',
  /** The model provider refused the credentials: fix the key or the role, retrying cannot help. */
  modelAuthFailed: 'ModelAuthFailed',
  /** The provider does not know the model: fix the model id, retrying cannot help. */
  modelNotFound: 'ModelNotFound',
  /** The provider refused the request itself (400): fix the model's settings, retrying cannot help. */
  modelRejectedRequest: 'ModelRejectedRequest',
  /**
   * The provider refused the request as longer than the model's context window (OpenAI
   * `context_length_exceeded`, Anthropic `prompt is too long`, Bedrock's input-too-long
   * validation): the step compacts the context and tries once more, then the turn fails.
   */
  contextTooLong: 'ContextTooLong',
  /**
   * Even the newest part of the context, which compaction keeps whole, does not fit the model's
   * context window: the turn fails, naming the sizes.
   */
  contextOverflow: 'ContextOverflow',
  /** The provider is throttling or failing after the client's own retries: safe to retry later. */
  modelUnavailable: 'ModelUnavailable',
  /** A turn whose lease expired was closed by the turn that took its session over. */
  turnTakenOver: 'TurnTakenOver',
  /** A cancel found no turn holding the session. */
  noTurnRunning: 'NoTurnRunning',
  /** A call's approval is not settled yet: the call does not run, it waits (AwaitApproval). */
  approvalRequired: 'ApprovalRequired',
  /**
   * A call's approval was settled before its task started waiting: it does not wait, the map goes
   * straight back to InvokeTool.
   */
  approvalSettled: 'ApprovalSettled',
  /** A decision on an approval that was already decided, expired or cancelled. */
  alreadyDecided: 'AlreadyDecided',
  /** The session has no approval by that id. */
  approvalNotFound: 'ApprovalNotFound',
  /** An execution's input is not a turn request: the message names the field and what it must be. */
  invalidTurnRequest: 'InvalidTurnRequest',
  /** No workflow run by that id: its log holds no `start` record. */
  workflowNotFound: 'WorkflowNotFound',
  /** A workflow spec written in code broke the language's rules: the message lists each problem at its path. */
  invalidWorkflow: 'InvalidWorkflow',
  /** A workflow run's inputs do not match the workflow's INPUT statements. */
  invalidWorkflowInput: 'InvalidWorkflowInput',
  /** A turn asked for in a workflow run's own session or one of its goal sessions: the run writes them alone. */
  workflowSession: 'WorkflowSession',
  /** The run has no human gate by that id (or it belongs to another tenant's run). */
  gateNotFound: 'GateNotFound',
  /** A human gate was answered before its task started waiting: it does not wait. */
  gateSettled: 'GateSettled',
  /** A turn asked for a model profile the deployment does not configure: configure it, retrying cannot help. */
  unknownModelProfile: 'UnknownModelProfile',
  /**
   * The model returned nothing (no thought, prose or call) in a step and again when asked once
   * more: the turn ends failed, as retrying the same context cannot be expected to help.
   */
  emptyModelOutput: 'EmptyModelOutput',
  /** A scripted or replayed model has no output for the requested step. */
  scriptEnded: 'ScriptEnded',
  /** The store (DynamoDB) cannot be reached or keeps failing after the client's own retries: safe to retry later. */
  storeUnavailable: 'StoreUnavailable',
  /** A fork was asked to create a session that already exists (with another origin, or none). */
  sessionExists: 'SessionExists',
  /** A fork was asked for a point of a log that is not a turn's end or a batch's results. */
  invalidForkPoint: 'InvalidForkPoint',
} as const;

/** One of {@link ERROR_NAMES}. */
export type ErrorName = (typeof ERROR_NAMES)[keyof typeof ERROR_NAMES];
