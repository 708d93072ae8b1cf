import { type Ceiling, EVERY_TENANT, MICROS_PER_USD, suspensionOf, tenantTag } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import type { OpenStore } from '../local/open-store.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

const ACTIONS = ['suspend', 'resume', 'show', 'set-ceiling'] as const;
type Action = (typeof ACTIONS)[number];

/** What one `tenants` command asks for. */
interface TenantsArgs {
  action: Action;
  tag: string;
  name: string;
  reason?: string;
  /** `set-ceiling`'s ceiling; `undefined` with `--none`. */
  ceiling?: Ceiling;
}

/**
 * `agentstep tenants suspend|resume TENANT|--all [--reason TEXT]`, `tenants set-ceiling TENANT
 * --usd-per-day X [--usd-per-month Y] | --none` and `tenants show TENANT`, on the folder's store:
 * the kill switch (decision 0041) and each tenant's own spend ceiling (decision 0043). A suspended
 * tenant starts no turn (`403 TenantSuspended`) and `serve` cancels its running turns.
 */
export async function tenantsCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseTenantsArgs(args);
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    io.stdout(`${await act(parsed, store)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** Does what `parsed` asks on `store`; what to print. */
async function act({ action, tag, name, reason, ceiling }: TenantsArgs, store: OpenStore): Promise<string> {
  const controls = store.tenantControls;
  if (action === 'suspend') {
    await controls.suspend(tag, { since: Date.now(), ...(reason === undefined ? {} : { reason }) });
    return `${name} suspended: no turn starts, and serve cancels the running ones.`;
  }
  if (action === 'resume') {
    await controls.resume(tag);
    return `${name} resumed.`;
  }
  if (action === 'set-ceiling') {
    await controls.setCeiling(tag, ceiling);
    return ceiling === undefined
      ? `${name} has no ceiling of its own.`
      : `${name}'s ceiling set: ${JSON.stringify(ceiling)}.`;
  }
  const [suspension, own, spent] = await Promise.all([
    suspensionOf(controls, tag),
    controls.get(tag),
    store.tenantSpend.spent(tag, Date.now()),
  ]);
  const usd = (micros: number) => micros / MICROS_PER_USD;
  return JSON.stringify({
    tenant: name,
    suspended: suspension ?? null,
    ceiling: own.ceiling ?? null,
    spentUsd: { day: usd(spent.day), month: usd(spent.month) },
  });
}

function parseTenantsArgs(args: string[]): TenantsArgs {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      all: { type: 'boolean', default: false },
      reason: { type: 'string' },
      'usd-per-day': { type: 'string' },
      'usd-per-month': { type: 'string' },
      none: { type: 'boolean', default: false },
    },
  });
  const [action, tenant, ...extra] = positionals;
  if (!ACTIONS.includes(action as Action))
    throw new UsageError(`tenants takes ${ACTIONS.join(', ')}; received ${JSON.stringify(action ?? '')}.`);
  const every = values.all === true && (action === 'suspend' || action === 'resume');
  if (extra.length > 0 || (every ? tenant !== undefined : tenant === undefined))
    throw new UsageError(
      `tenants ${action} takes one tenant${action === 'suspend' || action === 'resume' ? ', or --all' : ''}.`,
    );
  const ceiling = action === 'set-ceiling' ? ceilingOf(values) : undefined;
  return {
    action: action as Action,
    tag: every ? EVERY_TENANT : tenantTag(tenant ?? ''),
    name: every ? 'Every tenant' : `Tenant ${tenant}`,
    ...(values.reason === undefined ? {} : { reason: values.reason }),
    ...(ceiling === undefined ? {} : { ceiling }),
  };
}

/** `set-ceiling`'s figures: positive amounts in US dollars, or `--none`. */
function ceilingOf(values: {
  'usd-per-day'?: string;
  'usd-per-month'?: string;
  none?: boolean;
}): Ceiling | undefined {
  const amount = (flag: 'usd-per-day' | 'usd-per-month') => {
    const text = values[flag];
    if (text === undefined) return undefined;
    const usd = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (!(usd > 0))
      throw new UsageError(`--${flag} takes a positive amount in US dollars; received "${text}".`);
    return usd;
  };
  const [usdPerDay, usdPerMonth] = [amount('usd-per-day'), amount('usd-per-month')];
  if (values.none) return undefined;
  if (usdPerDay === undefined && usdPerMonth === undefined)
    throw new UsageError('tenants set-ceiling takes --usd-per-day, --usd-per-month, or --none.');
  return {
    ...(usdPerDay === undefined ? {} : { usdPerDay }),
    ...(usdPerMonth === undefined ? {} : { usdPerMonth }),
  };
}
