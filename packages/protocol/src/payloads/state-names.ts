/**
 * The loop's state names: the state machine is built with them, and the local engine, its stats
 * and the CLI's views read executions by them.
 */
export const STATE_NAMES = {
  startTurn: 'StartTurn',
  turnNotStarted: 'TurnNotStarted',
  requested: 'Requested',
  modelStep: 'ModelStep',
  route: 'Route',
  runTools: 'RunTools',
  awaitApproval: 'AwaitApproval',
  expireApproval: 'ExpireApproval',
  invokeTool: 'InvokeTool',
  recordToolFailure: 'RecordToolFailure',
  advanceTurn: 'AdvanceTurn',
  continueAsNew: 'ContinueAsNew',
  describeTurn: 'DescribeTurn',
  turnEnded: 'TurnEnded',
  publishTurnCompleted: 'PublishTurnCompleted',
  publishTurnFailed: 'PublishTurnFailed',
  awaitTurnEnd: 'AwaitTurnEnd',
  finishTurn: 'FinishTurn',
  failTurn: 'FailTurn',
  releaseTurn: 'ReleaseTurn',
} as const;

/** The states that take model steps. */
export const MODEL_STEP_STATES: ReadonlySet<string> = new Set([
  STATE_NAMES.modelStep,
  STATE_NAMES.advanceTurn,
]);
