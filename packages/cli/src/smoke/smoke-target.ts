import type { AgentStepClient } from '@agentstep/client';
import type { TurnResult } from '@agentstep/protocol';

/** A check the target cannot run, and why: printed as `skip`, never counted as passed. */
export class SmokeSkip {
  constructor(readonly reason: string) {}
}

/**
 * What `agentstep smoke` checks: an AgentStep HTTP API serving the smoke agent (`infra/smoke/agent.js`),
 * and what only a deployed stack has besides it.
 */
export interface SmokeTarget {
  /** Names the target in the summary: `serve http://…`, `stack NAME (REGION)`. */
  readonly name: string;
  /** The API, with the target's credentials. */
  readonly client: AgentStepClient;
  /** The web console's `config.json`, as its host serves it. */
  consoleConfig(signal: AbortSignal): Promise<unknown | SmokeSkip>;
  /** Starts a turn as a trigger does (an EventBridge event) and resolves with the turn's result. */
  trigger(message: string, signal: AbortSignal): Promise<TurnResult | SmokeSkip>;
}
