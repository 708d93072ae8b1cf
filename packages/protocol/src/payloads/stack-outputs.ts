/**
 * The outputs of a stack of `AgentStepStack` (and `AgentStepSmokeStack`), by what they hold: the
 * names CloudFormation keeps them under, which `agentstep smoke --stack` reads.
 */
export const STACK_OUTPUTS = {
  /** The loop's `live` alias, through which every turn starts. */
  liveAliasArn: 'LiveAliasArn',
  /** The operator function: the kill switch and tenant ceilings. */
  operatorFunctionName: 'OperatorFunctionName',
  /** The HTTP API's URL, ending in its stage and `/`. */
  apiUrl: 'ApiUrl',
  /** The web console's URL, when the stack serves one. */
  consoleUrl: 'ConsoleUrl',
  /** A smoke stack's event source: an event of it (`detail.stack` the stack's name) starts a turn. */
  smokeEventSource: 'SmokeEventSource',
} as const;
