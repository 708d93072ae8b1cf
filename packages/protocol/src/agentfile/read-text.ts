import type { ParseState } from './parse-state.js';
import type { WorkflowSpecPath } from './workflow-spec-problems.js';

/**
 * Reads a prompt or description: a string, or `FROM path` whose file content is inlined through
 * the injected `readFile`. A file that cannot be read is a problem at the path (the statement still
 * parses, with an empty text). Undefined after a syntax error.
 */
export function readText(state: ParseState, subject: string, path: WorkflowSpecPath): string | undefined {
  const token = state.peek();
  if (token.kind === 'string') {
    state.place(path, state.next());
    return token.value;
  }
  if (!state.isKeyword(token, 'FROM')) return state.expected(`a string or FROM after ${subject}`, token);
  state.next();
  const file = state.peek();
  if (file.kind !== 'path' && file.kind !== 'string') {
    return state.expected(`a file path after FROM in ${subject}`, file);
  }
  state.place(path, state.next());
  const read = readFile(state, file.value);
  if (read.ok) return read.text;
  state.report(file, `cannot read FROM file "${file.value}": ${read.reason}`);
  return '';
}

function readFile(
  state: ParseState,
  path: string,
): { ok: true; text: string } | { ok: false; reason: string } {
  if (!state.readFile) return { ok: false, reason: 'no readFile was given to parseAgentfile' };
  try {
    const text: unknown = state.readFile(path);
    if (typeof text === 'string') return { ok: true, text };
    return { ok: false, reason: `readFile returned ${typeof text}, expected the file's text` };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'an error that cannot be shown';
  }
}
