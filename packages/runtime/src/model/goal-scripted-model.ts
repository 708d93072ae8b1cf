import type { ModelMessage } from '@agentstep/protocol';
import * as z from 'zod';
import type { Model, ModelPart, ModelRequest } from './model.js';
import { modelScriptSchema, parseJsonWith, ScriptEndedError, ScriptedModel } from './scripted-model.js';
import { scriptedSummary } from './scripted-summary.js';

/**
 * A workflow's script: for each goal (`goal`, a USING agent's `goal[agent]`, a sub-agent's role, a
 * supervision phase's `goal:commit`, `goal:assess`, `goal:supervise`, a USING goal's synthesis
 * `goal:synthesize`), what each of its runs says, in order: a one-step answer as a string, or a
 * whole script (an array of model steps).
 */
export const goalScriptsSchema = z.record(z.string(), z.array(z.union([z.string(), modelScriptSchema])));

/** A workflow's script, by goal. */
export type GoalScripts = z.infer<typeof goalScriptsSchema>;

/** What an unscripted supervision phase says: a confident commitment, a met one, and CONTINUE. */
const SUPERVISION_DEFAULTS: Readonly<Record<string, string>> = {
  commit:
    '{"interpretation": "as written", "scope_in": [], "scope_out": [], "approach": "do it", "tools": [], "predicted_output": "the goal\'s output", "confidence": "high", "assumptions": []}<end>',
  assess: '{"met": true, "deviations": [], "concerns": [], "unexpected": []}<end>',
  supervise: 'CONTINUE<end>',
};

/**
 * A scripted model for workflows: it tells which goal a turn runs from the document the turn's
 * user message holds (E9, E7, a supervision phase or a synthesis), and plays that goal's next
 * run from its first step. The same message again (a redelivered step) plays the same run. Records every request.
 * A compaction's request starts no run: it is answered with {@link scriptedSummary}, without usage;
 * a step whose turn message the summary replaced goes on with its session's run.
 */
export class GoalScriptedModel implements Model {
  readonly id = 'scripted';
  readonly calls: ModelRequest[] = [];
  readonly #scripts: GoalScripts;
  readonly #runs = new Map<string, ScriptedModel>();
  readonly #played = new Map<string, number>();
  /** The run each session plays, for a step whose turn message a compaction's summary replaced. */
  readonly #sessions = new Map<string, ScriptedModel>();

  constructor(scripts: GoalScripts) {
    this.#scripts = scripts;
  }

  /** Reads a workflow script file's text; throws an error that names the file and each problem. */
  static fromJson(text: string, source: string): GoalScriptedModel {
    return new GoalScriptedModel(parseJsonWith(goalScriptsSchema, text, source));
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelPart> {
    this.calls.push(request);
    if (request.purpose === 'compaction') {
      yield scriptedSummary(request);
      return;
    }
    const message = withoutSummary(turnMessage(request.messages));
    const playing = request.session === undefined ? undefined : this.#sessions.get(request.session);
    if (message === '' && playing !== undefined) {
      yield* playing.stream(request);
      return;
    }
    const key = goalKey(message) ?? goalKey(request.messages[0]?.content ?? '') ?? '';
    const run = this.#run(key, message);
    if (request.session !== undefined) this.#sessions.set(request.session, run);
    yield* run.stream(request);
  }

  /** The run a turn's message plays: the goal's next one the first time it is seen. */
  #run(key: string, message: string): ScriptedModel {
    const id = `${key}\n${message}`;
    const known = this.#runs.get(id);
    if (known !== undefined) return known;
    const index = this.#played.get(key) ?? 0;
    this.#played.set(key, index + 1);
    // Only a supervision phase (`goal:phase`; goal ids hold no `:`) has a default answer.
    const phase = key.includes(':') ? key.slice(key.lastIndexOf(':') + 1) : '';
    const script = this.#scripts[key]?.[index] ?? SUPERVISION_DEFAULTS[phase];
    if (script === undefined) {
      throw new ScriptEndedError(
        `The workflow script has ${this.#scripts[key]?.length ?? 0} runs for "${key}", and run ${index + 1} was requested: add one.`,
      );
    }
    const run = new ScriptedModel(typeof script === 'string' ? [script] : script, `the script of "${key}"`);
    this.#runs.set(id, run);
    return run;
  }
}

/** The message that started the turn: the last user message that is not a batch's results. */
function turnMessage(messages: readonly ModelMessage[]): string {
  return (
    messages.findLast((message) => message.role === 'user' && !message.content.startsWith('<results>'))
      ?.content ?? ''
  );
}

/** A message without the compaction summary it may start with (decision 0035): the turn's own text, or nothing. */
function withoutSummary(message: string): string {
  if (!message.startsWith('<summary>')) return message;
  const end = message.indexOf('</summary>');
  return end === -1 ? '' : message.slice(end + '</summary>'.length).replace(/^\n\n/, '');
}

/** Which goal a workflow document is for, as its script names it; `undefined` for other text. */
export function goalKey(message: string): string | undefined {
  const supervision = /^<supervision phase="([^"]+)" goal="([^"]+)">/.exec(message);
  if (supervision) return `${supervision[2]}:${supervision[1]}`;
  const synthesis = /^<synthesis goal="([^"]+)">/.exec(message);
  if (synthesis) return `${synthesis[1]}:synthesize`;
  const goal = /^<workflow name="[^"]*">[\s\S]*?<current-goal id="([^"]+)"/.exec(message);
  if (goal) return goal[1];
  const task = /^<task role="([^"]+)" parent-goal="([^"]+)">/.exec(message);
  if (task) return message.includes('\n<objective>\n') ? `${task[2]}[${task[1]}]` : task[1];
  return undefined;
}
