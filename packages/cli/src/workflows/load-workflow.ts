import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  formatAgentfileProblem,
  parseAgentfile,
  parseWorkflowSpec,
  type WorkflowSpec,
} from '@agentstep/protocol';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';

/** A workflow file that does not parse or validate: every problem, one line each (`file:line:column: …`). */
export class WorkflowFileError extends Error {
  override readonly name = 'InvalidWorkflow';
}

/**
 * The workflow in `file`: an Agentfile (FROM paths read relative to its folder), or the workflow
 * spec as JSON when the name ends in `.json`. Every problem of the file is reported at once.
 */
export async function loadWorkflow(file: string, io: CliIo): Promise<WorkflowSpec> {
  const text = await io.readFile(file).catch((error: unknown) => {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new UsageError(`Cannot read the workflow file ${file} (${reason}).`);
  });
  const parsed = file.endsWith('.json') ? fromJson(text, file) : fromAgentfile(text, file);
  if (parsed.ok) return parsed.spec;
  throw new WorkflowFileError(`${file} is not a valid workflow:\n${parsed.problems.join('\n')}`);
}

type Parsed = { ok: true; spec: WorkflowSpec } | { ok: false; problems: string[] };

function fromAgentfile(text: string, file: string): Parsed {
  const folder = dirname(file);
  const parsed = parseAgentfile(text, { readFile: (path) => readFileSync(resolve(folder, path), 'utf8') });
  if (parsed.ok) return parsed;
  return { ok: false, problems: parsed.errors.map((problem) => formatAgentfileProblem(problem, file)) };
}

function fromJson(text: string, file: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`${file}: not valid JSON (${(error as Error).message})`] };
  }
  const parsed = parseWorkflowSpec(value);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    problems: parsed.errors.map(({ path, message }) => `${file}: ${path || 'the workflow'}: ${message}`),
  };
}
