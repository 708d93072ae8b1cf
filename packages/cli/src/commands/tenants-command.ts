import {
  type Ceiling,
  operateTenant,
  parseTenantOperation,
  systemClock,
  TENANT_ACTIONS,
  type TenantOperation,
} from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/**
 * `agentstep tenants suspend|resume TENANT|--all [--reason TEXT]`, `tenants set-ceiling TENANT
 * [--usd-per-day X] [--usd-per-month Y] [--tokens-per-day N] [--tokens-per-month N] | --none` and
 * `tenants show TENANT`, on the folder's store:
 * the kill switch (decision 0041) and each tenant's own spend ceiling (decision 0043). A suspended
 * tenant starts no turn (`403 TenantSuspended`) and `serve` cancels its running turns. `show` prints
 * the tenant as JSON; the others, what changed.
 */
export async function tenantsCommand(args: string[], io: CliIo): Promise<number> {
  const operation = parseTenantsArgs(args);
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    const { message, report } = await operateTenant(operation, { ...store, clock: systemClock });
    io.stdout(`${operation.action === 'show' ? JSON.stringify(report) : message}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

function parseTenantsArgs(args: string[]): TenantOperation {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      all: { type: 'boolean', default: false },
      reason: { type: 'string' },
      'usd-per-day': { type: 'string' },
      'usd-per-month': { type: 'string' },
      'tokens-per-day': { type: 'string' },
      'tokens-per-month': { type: 'string' },
      none: { type: 'boolean', default: false },
    },
  });
  const [action, tenant, ...extra] = positionals;
  if (!TENANT_ACTIONS.includes(action as TenantOperation['action']))
    throw new UsageError(
      `tenants takes ${TENANT_ACTIONS.join(', ')}; received ${JSON.stringify(action ?? '')}.`,
    );
  const switchable = action === 'suspend' || action === 'resume';
  const every = values.all === true && switchable;
  if (extra.length > 0 || (every ? tenant !== undefined : tenant === undefined))
    throw new UsageError(`tenants ${action} takes one tenant${switchable ? ', or --all' : ''}.`);
  const ceiling = action === 'set-ceiling' ? { ceiling: ceilingOf(values) ?? null } : {};
  return parseTenantOperation({
    action,
    ...(every ? { all: true } : { tenant }),
    ...(values.reason === undefined || action !== 'suspend' ? {} : { reason: values.reason }),
    ...ceiling,
  });
}

/** Each `set-ceiling` flag, the figure it sets, and whether it counts dollars or whole tokens. */
const CEILING_FLAGS = {
  'usd-per-day': { figure: 'usdPerDay', unit: 'usd' },
  'usd-per-month': { figure: 'usdPerMonth', unit: 'usd' },
  'tokens-per-day': { figure: 'tokensPerDay', unit: 'tokens' },
  'tokens-per-month': { figure: 'tokensPerMonth', unit: 'tokens' },
} as const;
type CeilingFlag = keyof typeof CEILING_FLAGS;

/** `set-ceiling`'s figures: positive amounts in US dollars, whole numbers of tokens, or `--none`. */
function ceilingOf(values: Partial<Record<CeilingFlag, string>> & { none?: boolean }): Ceiling | undefined {
  const ceiling: Ceiling = {};
  for (const [flag, { figure, unit }] of Object.entries(CEILING_FLAGS)) {
    const text = values[flag as CeilingFlag];
    if (text === undefined) continue;
    const number = (unit === 'usd' ? /^\d+(\.\d+)?$/ : /^\d+$/).test(text) ? Number(text) : Number.NaN;
    if (!(number > 0))
      throw new UsageError(
        `--${flag} takes ${unit === 'usd' ? 'a positive amount in US dollars' : 'a positive whole number of tokens'}; received "${text}".`,
      );
    ceiling[figure] = number;
  }
  if (values.none) return undefined;
  if (Object.keys(ceiling).length === 0)
    throw new UsageError(
      `tenants set-ceiling takes ${Object.keys(CEILING_FLAGS)
        .map((flag) => `--${flag}`)
        .join(', ')}, or --none.`,
    );
  return ceiling;
}
