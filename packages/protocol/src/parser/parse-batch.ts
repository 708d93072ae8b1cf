/** A call as the parser accepts it: a non-empty tool name and an arguments object (A6). */
export interface ParsedCall {
  name: string;
  args: Record<string, unknown>;
}

/** One element of an `<execute>` array: a call, or the reason it is not one. */
export type BatchElement =
  | { index: number; ok: true; call: ParsedCall }
  | { index: number; ok: false; element: unknown; reason: string };

/** An `<execute>` body: its elements, or one batch-level reason when it has no positions (A6). */
export type ParsedBatch = { ok: true; elements: BatchElement[] } | { ok: false; reason: string };

const EXPECTED_SHAPE = 'Expected a JSON array of calls: [{"name": "tool_name", "args": {"arg": "value"}}]';
const EXCERPT_LENGTH = 200;
const FENCED_BODY = /^```[^\n`]*\n([\s\S]*?)\n?[ \t]*```$/;

/** Parses an `<execute>` body per A5 (one optional code fence) and A6 (per-element validation). */
export function parseBatch(body: string): ParsedBatch {
  const json = stripFence(body.trim());
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: `The <execute> body is not valid JSON (${detail}). ${EXPECTED_SHAPE}. Received: ${excerpt(json)}`,
    };
  }
  if (!Array.isArray(value)) {
    return {
      ok: false,
      reason: `The <execute> body must be a JSON array; received ${describe(value)}. ${EXPECTED_SHAPE}.`,
    };
  }
  return { ok: true, elements: value.map(checkCall) };
}

function stripFence(body: string): string {
  return FENCED_BODY.exec(body)?.[1] ?? body;
}

/** Checks one element of an `<execute>` array (A6): a call, or the reason it is not one. */
export function checkCall(element: unknown, index: number): BatchElement {
  const reason = elementProblem(element);
  if (reason !== undefined) {
    return {
      index,
      ok: false,
      element,
      reason: `The call at index ${index} (counting from 0) is not valid: ${reason}. ${EXPECTED_SHAPE}.`,
    };
  }
  const { name, args } = element as { name: string; args: Record<string, unknown> };
  return { index, ok: true, call: { name, args } };
}

function elementProblem(element: unknown): string | undefined {
  if (!isObject(element)) return `expected an object, received ${describe(element)}`;
  const { name, args } = element;
  if (typeof name !== 'string' || name.trim() === '') {
    return `"name" must be a non-empty string, received ${describe(name)}`;
  }
  if (!isObject(args)) return `"args" of "${name}" must be an object, received ${describe(args)}`;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${excerpt(JSON.stringify(value))}`;
}

function excerpt(text: string): string {
  return text.length > EXCERPT_LENGTH
    ? `${text.slice(0, EXCERPT_LENGTH)}… (${text.length} characters)`
    : text;
}
