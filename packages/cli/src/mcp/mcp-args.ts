import { AGENT_OPTIONS, type AgentFlags, agentFlagsOf } from '../agent-file/agent-flags.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/** `agentstep mcp tools`'s arguments, checked. */
export interface McpToolsArgs {
  action: 'tools';
  json: boolean;
  flags: AgentFlags;
}

/** `agentstep mcp call`'s arguments, checked. */
export interface McpCallArgs {
  action: 'call';
  /** The tool as the model calls it: `SERVER__TOOL`. */
  name: string;
  args: Record<string, unknown>;
  json: boolean;
  flags: AgentFlags;
}

/**
 * The arguments of `agentstep mcp tools|call …`: the action, `call`'s tool and `--args`, `--json`
 * and the agent options. Every mistake is a UsageError that says what to fix.
 */
export function parseMcpArgs(argv: readonly string[]): McpToolsArgs | McpCallArgs {
  const [action, ...rest] = argv;
  if (action !== 'tools' && action !== 'call')
    throw new UsageError(
      `mcp takes tools (list the agent's MCP tools) or call NAME__TOOL (call one)${action === undefined ? '' : `, not "${action}"`}.`,
    );
  const { values, positionals } = parseOptions({
    args: rest,
    allowPositionals: true,
    options: { ...AGENT_OPTIONS, json: { type: 'boolean', default: false }, args: { type: 'string' } },
  });
  const flags = agentFlagsOf(values);
  if (action === 'tools') {
    if (positionals.length > 0 || values.args !== undefined)
      throw new UsageError('mcp tools takes no tool and no --args: it lists every tool.');
    return { action, json: values.json, flags };
  }
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0 || !name.includes('__'))
    throw new UsageError(
      `mcp call takes one tool as the model calls it, SERVER__TOOL (see agentstep mcp tools)${name === undefined ? '' : `; received ${positionals.join(' ')}`}.`,
    );
  return { action, name, args: argsOf(values.args), json: values.json, flags };
}

/** `--args JSON`: the tool's arguments, a JSON object. @default `{}` */
function argsOf(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--args is not JSON (${(error as Error).message}): give an object, such as --args '{"a": 1}'.`,
      {
        cause: error,
      },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(
      `--args takes a JSON object of the tool's arguments, such as --args '{"a": 1}'; received ${text}.`,
    );
  return value as Record<string, unknown>;
}
