import { BATCH_CAPS } from './batch-caps.js';
import { jsonBytes } from './json-bytes.js';
import { nestsDeeperThan } from './json-depth.js';

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
const FENCE = '```';

/** Parses an `<execute>` body per A5 (one optional code fence) and A6 (per-element validation). */
export function parseBatch(body: string): ParsedBatch {
  const json = stripFence(body.trim());
  if (nestsDeeperThan(json, BATCH_CAPS.depth)) {
    return {
      ok: false,
      reason: `The <execute> body nests arrays and objects more than ${BATCH_CAPS.depth} levels deep, the protocol's cap. ${EXPECTED_SHAPE}, with flatter arguments.`,
    };
  }
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
  if (value.length > BATCH_CAPS.calls) {
    return {
      ok: false,
      reason: `The <execute> array has ${value.length} calls; a batch holds at most ${BATCH_CAPS.calls}, the protocol's cap. Make the calls in batches of at most ${BATCH_CAPS.calls}.`,
    };
  }
  return { ok: true, elements: value.map(checkCall) };
}

/**
 * A5: the content of a body wrapped in one code fence (an opening line of three backticks and an
 * optional info string, a closing line of three backticks), else the body. One pass from each
 * end, never a backtracking regular expression: linear in the body however long its blank runs.
 */
export function stripFence(body: string): string {
  const opening = body.indexOf('\n');
  if (!body.startsWith(FENCE) || opening < 0 || body.slice(FENCE.length, opening).includes('`')) return body;
  if (!body.endsWith(FENCE) || body.length - FENCE.length <= opening) return body;
  let end = body.length - FENCE.length;
  while (end > opening + 1 && (body[end - 1] === ' ' || body[end - 1] === '\t')) end--;
  if (end > opening + 1 && body[end - 1] === '\n') end--;
  return body.slice(opening + 1, end);
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
  // Counted, not written: the call's text is written once, as its event's content.
  const bytes = jsonBytes(element);
  if (bytes > BATCH_CAPS.callBytes) {
    return `the call to "${name}" is ${bytes} bytes of JSON, over the protocol's cap of ${BATCH_CAPS.callBytes} bytes per call; pass less data per call`;
  }
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
