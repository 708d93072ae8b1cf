import { tenantCeilingSchema } from '@agentstep/protocol';
import * as z from 'zod';
import type { Clock } from '../clock/clock.js';
import { tenantTag } from '../requests/stored-session.js';
import { controlsInForce, type SuspensionInForce } from './suspension-of.js';
import { type Ceiling, ceilingOf, EVERY_TENANT, type TenantControls } from './tenant-controls.js';
import { MICROS_PER_USD, SPEND_UNITS, type TenantSpend } from './tenant-spend.js';

/** What an operator may do to a tenant (decisions 0041 and 0043). */
export const TENANT_ACTIONS = ['suspend', 'resume', 'show', 'set-ceiling'] as const;

/**
 * One operator's command, as `agentstep tenants` parses it and the deployed operator function
 * takes it: `tenant` (its name, as the API knows it) or `all` (suspend and resume only: the
 * agent-wide switch); `reason` for a suspension; `ceiling` for `set-ceiling`, `null` to drop it.
 */
export const tenantOperationSchema = z
  .strictObject({
    action: z.enum(TENANT_ACTIONS),
    tenant: z.string().min(1).max(2048).optional(),
    all: z.literal(true).optional(),
    reason: z.string().min(1).max(1000).optional(),
    ceiling: tenantCeilingSchema
      .refine(
        (ceiling) => Object.keys(ceiling).length > 0,
        'names usdPerDay, usdPerMonth, tokensPerDay or tokensPerMonth',
      )
      .nullable()
      .optional(),
  })
  .superRefine((operation, context) => {
    const switchable = operation.action === 'suspend' || operation.action === 'resume';
    const problem = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if ((operation.tenant === undefined) === (operation.all === undefined))
      problem('tenant', `${operation.action} takes one tenant${switchable ? ', or all: true' : ''}`);
    if (operation.all && !switchable) problem('all', 'only suspend and resume act on every tenant');
    if (operation.reason !== undefined && operation.action !== 'suspend')
      problem('reason', 'only a suspension has a reason');
    if ((operation.ceiling !== undefined) !== (operation.action === 'set-ceiling'))
      problem('ceiling', 'set-ceiling takes a ceiling (null: none of its own), and only it does');
  });

/** An operator's command (see {@link tenantOperationSchema}). */
export type TenantOperation = z.output<typeof tenantOperationSchema>;

/** A payload that is not an operator's command: each problem, by field, in one line. */
export class InvalidTenantOperationError extends Error {
  override readonly name = 'InvalidTenantOperationError';
}

/** `payload` as an operator's command, or {@link InvalidTenantOperationError} naming what is wrong. */
export function parseTenantOperation(payload: unknown): TenantOperation {
  const parsed = tenantOperationSchema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`,
  );
  throw new InvalidTenantOperationError(`Not an operator's command: ${problems.join('; ')}.`, {
    cause: parsed.error,
  });
}

/** A tenant as an operator sees it after a command: its suspension, its own ceiling, its spend. */
export interface TenantReport {
  /** Its name, or `*` for every tenant. */
  tenant: string;
  /** Its suspension in force, its own or (`every`) the agent-wide one. */
  suspended: SuspensionInForce | null;
  ceiling: Ceiling | null;
  /** What it spent on priced models this UTC day and month; not for every tenant. */
  spentUsd?: { day: number; month: number };
  /** The input + output tokens its model steps used this UTC day and month (when a token ceiling counts them). */
  spentTokens?: { day: number; month: number };
}

/** What an operator's command acts on. */
export interface TenantOperationDeps {
  tenantControls: TenantControls;
  tenantSpend: TenantSpend;
  clock: Clock;
}

/**
 * Does an operator's command on the tenant's controls (decisions 0041 and 0043) and reports the
 * tenant as it now is, with one sentence saying what changed. A suspension stops new turns here;
 * cancelling the running ones is the caller's ({@link cancelTurnsOfSuspended}).
 */
export async function operateTenant(
  operation: TenantOperation,
  deps: TenantOperationDeps,
): Promise<{ message: string; report: TenantReport }> {
  const every = operation.all === true;
  const tag = every ? EVERY_TENANT : tenantTag(operation.tenant ?? '');
  const name = every ? 'Every tenant' : `Tenant ${operation.tenant}`;
  const controls = deps.tenantControls;
  let message: string;
  if (operation.action === 'suspend') {
    const reason = operation.reason === undefined ? {} : { reason: operation.reason };
    await controls.suspend(tag, { since: deps.clock.now(), ...reason });
    message = `${name} suspended: no turn starts, and its running turns are cancelled.`;
  } else if (operation.action === 'resume') {
    await controls.resume(tag);
    message = `${name} resumed.`;
  } else if (operation.action === 'set-ceiling') {
    const ceiling = operation.ceiling ? ceilingOf(operation.ceiling) : undefined;
    await controls.setCeiling(tag, ceiling);
    message = ceiling
      ? `${name}'s ceiling set: ${JSON.stringify(ceiling)}.`
      : `${name} has no ceiling of its own.`;
  } else message = `${name}.`;
  return { message, report: await tenantReport(every ? EVERY_TENANT : (operation.tenant ?? ''), tag, deps) };
}

async function tenantReport(tenant: string, tag: string, deps: TenantOperationDeps): Promise<TenantReport> {
  const { own, suspension } = await controlsInForce(deps.tenantControls, tag);
  const report = { tenant, suspended: suspension ?? null, ceiling: own.ceiling ?? null };
  if (tag === EVERY_TENANT) return report;
  const now = deps.clock.now();
  const [micros, tokens] = await Promise.all(
    SPEND_UNITS.map((unit) => deps.tenantSpend.spent(tag, unit, now)),
  );
  const usd = (amount = 0) => amount / MICROS_PER_USD;
  return {
    ...report,
    spentUsd: { day: usd(micros?.day), month: usd(micros?.month) },
    spentTokens: { day: tokens?.day ?? 0, month: tokens?.month ?? 0 },
  };
}
