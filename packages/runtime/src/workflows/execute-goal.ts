import { interpolate, renderContext } from '@agentstep/protocol';
import type { Attempt, AttemptOutputs } from './attempt-outputs.js';
import { agentContext, type Correction, type GoalCompletion, goalContext } from './goal-context.js';
import { fieldsRetryMessage, goalFields } from './goal-fields.js';
import { failed, type NewRecord, type Plan, type PlannedRun } from './plan.js';
import type { Logged, RunLog } from './run-log.js';
import { synthesisMessage } from './synthesis-message.js';
import { type Slot, withinOf } from './workflow-slots.js';
import { variablesOf } from './workflow-variables.js';

/** A goal attempt's result once its runs are done: its goal records (slot fields still to add). */
export interface Executed {
  completion: NewRecord[];
  /** The goal's output, as supervision and human gates see it. */
  output: string;
}

/** Where executing a goal attempt stands: runs or a failure still to come, or its result. */
export type Execution = { plan: Plan } | Executed;

/** What executing one goal attempt needs. */
export interface ExecuteContext {
  log: RunLog;
  slot: Slot;
  at: Attempt;
  outputs: AttemptOutputs;
  correction?: Correction;
}

/**
 * EXECUTE for one goal attempt: a plain goal's run, a USING goal's agents in parallel (then the
 * synthesis, when asked for), or a CONVERGE goal's iterations until CONVERGED or WITHIN (E6); each
 * output kept gets one corrective retry when declared fields are missing.
 */
export function executeGoal(context: ExecuteContext): Execution {
  if (context.slot.goal.kind === 'converge') return converge(context);
  if (context.slot.goal.using.length > 0) return withAgents(context);
  const { log, slot, outputs, correction } = context;
  const message = renderContext(goalContext(log, slot, correction ? { correction } : {}));
  const result = finished(context, outputs.get('execute'), { phase: 'execute', message });
  if (!('output' in result)) return result;
  const fields = withFields(context, result.output, slot.goal.outputs, { phase: 'execute' });
  if (!('fields' in fields)) return fields;
  return { output: fields.output, completion: [goalRecord(context, fields.output, fields.fields)] };
}

function withAgents(context: ExecuteContext): Execution {
  const { log, slot, outputs, correction } = context;
  const agents = slot.goal.using.map((name) => log.spec.agents.find((agent) => agent.name === name));
  const variables = variablesOf(log);
  const runs: PlannedRun[] = [];
  const completion: GoalCompletion[] = [];
  for (const agent of agents) {
    if (agent === undefined)
      return { plan: failed('UnknownAgent', `Goal ${slot.goal.name} uses an undefined agent.`) };
    const message = renderContext(agentContext(log, slot, agent, correction));
    const origin: Origin = {
      phase: 'execute',
      agent: agent.name,
      instructions: interpolate(agent.prompt, variables),
      ...(agent.requires === undefined ? {} : { model: agent.requires }),
    };
    const result = finished(context, outputs.get('execute', agent.name), { ...origin, message });
    if ('plan' in result) {
      if (result.plan.kind !== 'runs') return result;
      runs.push(...result.plan.runs);
      continue;
    }
    const fields = withFields(context, result.output, agent.outputs, origin);
    if (!('fields' in fields)) return fields;
    completion.push(goalRecord(context, fields.output, fields.fields, { agent: agent.name }));
  }
  if (runs.length > 0) return { plan: { kind: 'runs', runs } };
  if (slot.goal.synthesize === true) return synthesized(context, completion);
  return { completion, output: completion.map((entry) => entry.content).join('\n\n') };
}

/**
 * SYNTHESIZE, once every agent of the attempt ended: one more run (the default model, no persona)
 * merges their outputs, shown as `goal[agent]` in the goal's document; its output (and the goal's
 * fields, with the same corrective retry) completes the slot after the agents' records.
 */
function synthesized(context: ExecuteContext, agents: readonly GoalCompletion[]): Execution {
  const { log, slot, correction } = context;
  const document = renderContext(
    goalContext(log, slot, { completions: agents, ...(correction ? { correction } : {}) }),
  );
  const message = synthesisMessage(slot.goal.name, slot.goal.using, document);
  const origin = { phase: 'synthesize' as const };
  const result = finished(context, context.outputs.get('synthesize'), { ...origin, message });
  if (!('output' in result)) return result;
  const fields = withFields(context, result.output, slot.goal.outputs, origin);
  if (!('fields' in fields)) return fields;
  return {
    output: fields.output,
    completion: [...agents, goalRecord(context, fields.output, fields.fields)],
  };
}

function converge(context: ExecuteContext): Execution {
  const { log, slot, outputs, correction } = context;
  const limit = withinOf(log, slot.goal.within ?? 1);
  if (typeof limit !== 'number') return { plan: failed(limit.error, limit.message) };
  const iterations = outputs.iterations();
  const stopped = iterations.find((iteration) => iteration.record.status !== 'done');
  if (stopped !== undefined) return { plan: runFailed(slot, stopped) };
  const last = iterations.at(-1);
  const converged = last !== undefined && last.content.trim() === 'CONVERGED';
  if (!converged && iterations.length < limit) {
    const history = iterations.map(({ content }, index) => ({ n: index + 1, output: content }));
    const message = renderContext(goalContext(log, slot, { history, ...(correction ? { correction } : {}) }));
    return {
      plan: {
        kind: 'runs',
        runs: [{ ...context.at, phase: 'iteration', n: iterations.length + 1, message }],
      },
    };
  }
  const answer = converged ? iterations.at(-2) : last;
  // The fields' retry goes on in the session of the iteration whose output the goal keeps.
  const origin: Origin = { phase: 'iteration', ...(answer ? { session: answer.record.session } : {}) };
  const fields = withFields(context, answer?.content ?? '', slot.goal.outputs, origin);
  if (!('fields' in fields)) return fields;
  const note = converged ? {} : { note: 'converge_limit' as const };
  return { output: fields.output, completion: [goalRecord(context, fields.output, fields.fields, note)] };
}

/** A phase's ended run as its output, or the plan that runs it (not run yet) or fails the run. */
function finished(
  context: ExecuteContext,
  run: Logged<'output'> | undefined,
  planned: Omit<PlannedRun, keyof Attempt>,
): { output: string } | { plan: Plan } {
  if (run === undefined) return { plan: { kind: 'runs', runs: [{ ...context.at, ...planned }] } };
  if (run.record.status !== 'done') return { plan: runFailed(context.slot, run) };
  return { output: run.content };
}

/**
 * The run an output came from: its phase, for a USING agent the agent, its persona and profile,
 * and its session when the phase's latest run is not the one (a CONVERGE goal keeps an earlier
 * iteration's output).
 */
interface Origin {
  phase: 'execute' | 'synthesize' | 'iteration';
  agent?: string;
  instructions?: string;
  model?: string;
  session?: string;
}

/** The fields of an output, after one corrective retry in the same session when some are missing. */
function withFields(
  context: ExecuteContext,
  output: string,
  names: readonly string[],
  origin: Origin,
): { output: string; fields: Record<string, unknown> } | { plan: Plan } {
  const first = goalFields(output, names);
  if (first.missing.length === 0) return { output, fields: first.fields };
  const { phase, agent, session, ...agentSettings } = origin;
  const ran = session ?? context.outputs.get(phase, agent)?.record.session;
  const retry = finished(context, context.outputs.get('fields', agent), {
    phase: 'fields',
    message: fieldsRetryMessage(first.missing, names),
    ...(agent === undefined ? {} : { agent }),
    ...agentSettings,
    ...(ran === undefined ? {} : { session: ran }),
  });
  if (!('output' in retry)) return retry;
  const second = goalFields(retry.output, names);
  if (second.missing.length > 0) {
    return { plan: missingFields(context.slot, second.missing, context.outputs.get('fields', agent)) };
  }
  return { output: retry.output, fields: second.fields };
}

function goalRecord(
  context: ExecuteContext,
  output: string,
  fields: Record<string, unknown>,
  extra: { agent?: string; note?: 'converge_limit' } = {},
): GoalCompletion {
  const { slot, at } = context;
  return {
    record: {
      kind: 'goal',
      ...at,
      ...extra,
      ...(slot.loop === undefined ? {} : { loop: slot.loop, iteration: slot.iteration }),
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
    },
    content: output,
  };
}

function runFailed(slot: Slot, run: Logged<'output'>): Plan {
  const { phase, agent, session, status } = run.record;
  const who = agent === undefined ? `Goal ${slot.goal.name}` : `Agent ${agent} of goal ${slot.goal.name}`;
  return failed('GoalFailed', `${who} (${phase}) ended ${status}: see session ${session}.`);
}

function missingFields(slot: Slot, missing: readonly string[], run: Logged<'output'> | undefined): Plan {
  const where = run === undefined ? '' : ` (session ${run.record.session})`;
  return failed(
    'GoalFieldsMissing',
    `Goal ${slot.goal.name}'s output has no JSON object with the field${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, even after a corrective retry${where}.`,
  );
}
