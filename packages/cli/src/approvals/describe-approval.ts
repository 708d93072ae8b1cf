import type { WireEventOf } from '@agentstep/protocol';

const ARGS_PREVIEW = 120;

/**
 * An `approval` event of a run's session as one line for people, naming the call by its position
 * and tool: a request says how to decide it from another shell; a settlement says how it ended.
 */
export function describeApproval(
  event: WireEventOf<'approval'>,
  call: { session: string; tool: string },
): string {
  const { id, index, status, by, reason, args } = event.payload;
  const name = `#${index} ${call.tool}`;
  const because = reason === undefined ? '' : `: ${reason}`;
  const byWhom = by === undefined ? '' : ` by ${by}`;
  switch (status) {
    case 'requested':
      return `  ⏸ ${name} ${preview(args)} waits for approval (id ${id}): agentstep approve ${call.session} ${id} [--deny]`;
    case 'approved':
      return `  ✓ ${name} approved${byWhom}${args === undefined ? '' : ` with ${preview(args)}`}${because}`;
    case 'denied':
      return `  ✗ ${name} denied${byWhom}${because}`;
    case 'expired':
      return `  ⌛ ${name} expired: nobody decided in time`;
    case 'cancelled':
      return `  ✗ ${name} cancelled while it waited for approval`;
  }
}

/** Arguments as compact JSON, cut to a preview. */
function preview(args: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(args ?? {});
  return text.length > ARGS_PREVIEW ? `${text.slice(0, ARGS_PREVIEW)}…` : text;
}
