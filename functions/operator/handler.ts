import {
  type CancelDeps,
  cancelTurnsOfSuspended,
  operateTenant,
  parseTenantOperation,
  type RunningTurn,
  type TenantOperationDeps,
  type TenantReport,
} from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';
import * as z from 'zod';

/** What the operator function acts on: the tenants' controls and spend, and the running turns. */
export interface OperatorDeps extends TenantOperationDeps, CancelDeps {
  /** Every turn running now (`StepFunctionsStarter.runningTurns`). */
  runningTurns(): Promise<RunningTurn[]>;
}

/** What the operator function answers: what changed, the tenant as it now is, the turns it cancelled. */
export interface OperatorAnswer {
  message: string;
  tenant: TenantReport;
  /** The turns a suspension cancelled, by stored session; none for the other actions. */
  cancelled: RunningTurn[];
}

/**
 * Does an operator's command (decisions 0041 and 0043); a suspension then cancels the suspended
 * tenant's running turns at once, as `serve` does within its half-second look.
 */
async function operate(payload: unknown, deps: OperatorDeps): Promise<OperatorAnswer> {
  const operation = parseTenantOperation(payload);
  const { message, report } = await operateTenant(operation, deps);
  const cancelled =
    operation.action === 'suspend' ? await cancelTurnsOfSuspended(await deps.runningTurns(), deps) : [];
  return { message, tenant: report, cancelled };
}

/**
 * The operator function: the deployed `agentstep tenants`, invoked with an operator's command as
 * its payload (`{"action": "suspend", "tenant": "…", "reason": "…"}`). Only principals granted
 * `lambda:InvokeFunction` on it reach it (`AgentStep.grantOperate`): no tenant's credentials do.
 * A payload that is not a command fails the invocation with one line naming each wrong field.
 */
export const createHandler = (deps: OperatorDeps & HandlerDeps) => stepHandler(z.unknown(), operate, deps);
