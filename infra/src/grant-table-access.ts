import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { StepName } from './step-lambda.js';

/**
 * What the loop's steps do on the event-log table: read items and sessions, append in
 * transactions (puts, head updates, condition checks), write large bodies' chunks, take leases.
 * Never a delete or a scan.
 */
const LOOP_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:BatchWriteItem',
];

/**
 * What InvokeTool, which runs model-directed tools, does: read its calls and store their outcomes
 * (puts, with large bodies' chunks). It never updates the head, so it can neither take a session nor
 * append to a log.
 */
const TOOL_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:BatchWriteItem'];

/**
 * What InvokeTool adds when it runs sub-agents (the `agents` toolset): it updates a child session's
 * head, beginning the sub-agent's turn there (the child's lease and its task, in one transaction)
 * and asking that turn to stop when the call is cancelled. IAM cannot tell one session's items from
 * another's, so the grant is the table's; the code updates only its children's heads.
 */
const SUB_AGENT_ACTIONS = ['dynamodb:UpdateItem'];

/** What DescribeTurn, which reads a turn's result from the log, does: reads only. */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query'];

/** Grants a step's function exactly the table actions its step uses. */
export function grantTableAccess(table: TableV2, step: StepName, fn: IFunction): void {
  const actions =
    step === 'invoke-tool' ? TOOL_ACTIONS : step === 'describe-turn' ? READ_ACTIONS : LOOP_ACTIONS;
  table.grant(fn, ...actions);
}

/** Grants the tools function what running sub-agents adds to its own table actions ({@link SUB_AGENT_ACTIONS}). */
export function grantSubAgentTableAccess(table: TableV2, fn: IFunction): void {
  table.grant(fn, ...SUB_AGENT_ACTIONS);
}

/**
 * Grants the API function what its routes do on the table: read logs, sessions and usage, start a
 * turn (take the session's lease and append the user message in one transaction, a large body in
 * chunks), set a cancel flag, close a stopped turn, queue messages and withdraw them or start their
 * turns (decision 0033). A loop step's actions and `DeleteItem` for the queue's items: no scans.
 */
export function grantApiTableAccess(table: TableV2, fn: IFunction): void {
  grantQueueTableAccess(table, fn);
}

/**
 * Grants what starting a queued message's turn does (StartQueuedTurn, the API): a loop step's
 * actions, and deleting the queue's items of a message withdrawn or whose turn began
 * (`DeleteItem`). No scans.
 */
export function grantQueueTableAccess(table: TableV2, fn: IFunction): void {
  table.grant(fn, ...LOOP_ACTIONS, 'dynamodb:DeleteItem');
}

/**
 * Grants what the operator function does (decisions 0041 and 0043): set tenants' controls, read
 * their spend, and cancel a suspended tenant's turns as the API's cancel does. A loop step's actions.
 */
export function grantOperatorTableAccess(table: TableV2, fn: IFunction): void {
  table.grant(fn, ...LOOP_ACTIONS);
}

/**
 * Grants reading sessions' logs and heads (`GetItem`, `Query`), as a client or a parent workflow
 * reads how a turn ended: nothing that writes, deletes or scans.
 */
export function grantSessionReads(table: TableV2, grantee: IGrantable): Grant {
  return table.grant(grantee, 'dynamodb:GetItem', 'dynamodb:Query');
}
