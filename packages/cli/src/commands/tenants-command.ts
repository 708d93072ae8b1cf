import { EVERY_TENANT, suspensionOf, tenantTag } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

const ACTIONS = ['suspend', 'resume', 'show'] as const;
type Action = (typeof ACTIONS)[number];

/**
 * `agentstep tenants suspend|resume TENANT|--all [--reason TEXT]` and `tenants show TENANT`: the
 * kill switch (decision 0041) on the folder's store. A suspended tenant (every tenant, with `--all`)
 * starts no turn (`403 TenantSuspended`), and `serve` cancels its running turns within 2 seconds.
 */
export async function tenantsCommand(args: string[], io: CliIo): Promise<number> {
  const { action, tag, name, reason } = parseTenantsArgs(args);
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    const controls = store.tenantControls;
    if (action === 'suspend') {
      await controls.suspend(tag, { since: Date.now(), ...(reason === undefined ? {} : { reason }) });
      io.stdout(`${name} suspended: no turn starts, and serve cancels the running ones.\n`);
    } else if (action === 'resume') {
      await controls.resume(tag);
      io.stdout(`${name} resumed.\n`);
    } else {
      const suspension = await suspensionOf(controls, tag);
      io.stdout(`${JSON.stringify({ tenant: name, suspended: suspension ?? null })}\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

function parseTenantsArgs(args: string[]): { action: Action; tag: string; name: string; reason?: string } {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: { all: { type: 'boolean', default: false }, reason: { type: 'string' } },
  });
  const [action, tenant, ...extra] = positionals;
  if (!ACTIONS.includes(action as Action))
    throw new UsageError(`tenants takes ${ACTIONS.join(', ')}; received ${JSON.stringify(action ?? '')}.`);
  const every = values.all === true && action !== 'show';
  if (extra.length > 0 || (every ? tenant !== undefined : tenant === undefined))
    throw new UsageError(`tenants ${action} takes one tenant${action === 'show' ? '' : ', or --all'}.`);
  return {
    action: action as Action,
    tag: every ? EVERY_TENANT : tenantTag(tenant ?? ''),
    name: every ? 'Every tenant' : `Tenant ${tenant}`,
    ...(values.reason === undefined ? {} : { reason: values.reason }),
  };
}
