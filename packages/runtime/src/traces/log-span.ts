/** A span attribute's value, as OpenTelemetry takes it. */
export type SpanValue = string | number | boolean | string[];

/** A point in a span's life: an approval asked or decided, a compaction. */
export interface LogSpanEvent {
  name: string;
  /** Milliseconds since the epoch. */
  timeMs: number;
  attributes?: Record<string, SpanValue>;
}

/** A span another span points at: a sub-agent's turn from the call that ran it. */
export interface LogSpanLink {
  traceId: string;
  spanId: string;
}

/**
 * A span derived from a session's log (decision 0047): what an OpenTelemetry exporter sends, as
 * plain data, with ids that are the same however often the session is exported.
 */
export interface LogSpan {
  /** 32 hex digits: the turn's. */
  traceId: string;
  /** 16 hex digits. */
  spanId: string;
  /** The span this one is a child of; none for a turn's `invoke_agent`. */
  parentSpanId?: string;
  /** `invoke_agent {agent}`, `chat {model}`, `execute_tool {tool}`. */
  name: string;
  /** `client` for a model's request, `internal` for the agent and its tools. */
  kind: 'client' | 'internal';
  /** Milliseconds since the epoch. */
  startMs: number;
  endMs: number;
  /** Only the GenAI semantic conventions' attributes (`gen_ai.*`). */
  attributes: Record<string, SpanValue>;
  events: LogSpanEvent[];
  links: LogSpanLink[];
  /** `error` for a failed turn or call, with what failed it (content only when captured). */
  status: { code: 'unset' | 'error'; message?: string };
}
