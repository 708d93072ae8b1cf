import { AGENT_OPTIONS, checkAgentFlags } from '../agent-file/agent-flags.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';
import { checkedSessionId } from './parse-session-args.js';

/** What `agentstep traces` exports, where, and with which agent's name. */
export interface TracesArgs {
  session: string;
  /** The collector's OTLP/HTTP address (`/v1/traces` is added). */
  otlp?: string;
  json: boolean;
  captureContent: boolean;
  agentFile?: string;
}

/** Reads `traces`' arguments: one session id, `--otlp URL`, `--json`, `--capture-content`, agent options. */
export function parseTracesArgs(args: string[]): TracesArgs {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      otlp: { type: 'string' },
      json: { type: 'boolean', default: false },
      'capture-content': { type: 'boolean', default: false },
      ...AGENT_OPTIONS,
    },
  });
  checkAgentFlags(values);
  const [session, ...extra] = positionals;
  if (session === undefined || extra.length > 0) throw new UsageError('traces takes one session id.');
  if (values.otlp !== undefined && values.json) throw new UsageError('give --otlp URL or --json, not both.');
  if (values.otlp !== undefined && !isCollectorAddress(values.otlp))
    throw new UsageError(
      `--otlp takes the collector's address, such as http://127.0.0.1:4318 (no query; /v1/traces is added); received "${values.otlp}".`,
    );
  return {
    session: checkedSessionId(session),
    json: values.json,
    captureContent: values['capture-content'],
    ...(values.otlp === undefined ? {} : { otlp: values.otlp }),
    ...(values.agent === undefined ? {} : { agentFile: values.agent }),
  };
}

/** An http(s) URL with no query or fragment: what OTLP/HTTP adds `/v1/traces` to. */
function isCollectorAddress(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
}
