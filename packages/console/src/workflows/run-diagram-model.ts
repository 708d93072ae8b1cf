import type { WorkflowRecordEvent } from './use-workflow-run.js';

type Payload = WorkflowRecordEvent['payload'];
type PayloadOf<Kind extends Payload['kind']> = Extract<Payload, { kind: Kind }>;

/** Where a goal of the run stands: not reached yet, running, or completed. */
export type NodeState = 'pending' | 'running' | 'done';

/** One USING agent of a goal: its latest session, if it has run. */
export interface AgentNode {
  agent: string;
  session?: string;
}

/** One goal of the run as the diagram draws it, from the run's records so far. */
export interface GoalNode {
  goal: string;
  kind: 'goal' | 'converge';
  state: NodeState;
  /** Iterations run (a CONVERGE goal's, a LOOP's), when more than one. */
  iterations: number;
  /** The goal's latest child session (without agent): what the node opens. */
  session?: string;
  agents: AgentNode[];
  /** Its human gate's latest status, if it has one. */
  gate?: string;
  /** The supervisor's latest verdict on it, if any. */
  verdict?: string;
}

/** One step of the program (`RUN` or `LOOP`) and its goals in order. */
export interface DiagramLane {
  step: string;
  kind: 'run' | 'loop';
  goals: GoalNode[];
}

/**
 * The run as a diagram: its steps in order, each with its goals, drawn from the `start` record's
 * workflow and what the records say of each goal so far; empty before the `start` record.
 */
export function runDiagram(records: readonly WorkflowRecordEvent[]): DiagramLane[] {
  const payloads = records.map((record) => record.payload);
  const start = payloads.find((payload): payload is PayloadOf<'start'> => payload.kind === 'start');
  if (start === undefined) return [];
  const { spec } = start;
  return spec.steps.map((step) => ({
    step: step.name,
    kind: step.kind,
    goals: step.goals.map((name) => {
      const goal = spec.goals.find((candidate) => candidate.name === name);
      return goalNode(name, goal?.kind ?? 'goal', goal?.using ?? [], payloads);
    }),
  }));
}

function goalNode(
  goal: string,
  kind: GoalNode['kind'],
  using: readonly string[],
  payloads: readonly Payload[],
): GoalNode {
  const of = <Kind extends Payload['kind']>(recordKind: Kind) =>
    payloads.filter(
      (payload): payload is PayloadOf<Kind> =>
        payload.kind === recordKind && 'goal' in payload && payload.goal === goal,
    );
  const runs = of('run');
  const session = runs.findLast((run) => run.agent === undefined)?.session;
  const gate = of('gate').at(-1)?.status;
  const verdict = of('verdict').at(-1)?.verdict;
  return {
    goal,
    kind,
    state: of('goal').length > 0 ? 'done' : runs.length > 0 ? 'running' : 'pending',
    iterations: Math.max(
      0,
      ...runs.map((run) => run.n ?? 0),
      ...of('goal').map((record) => record.iteration ?? 0),
    ),
    ...(session === undefined ? {} : { session }),
    agents: using.map((agent) => {
      const latest = runs.findLast((run) => run.agent === agent)?.session;
      return latest === undefined ? { agent } : { agent, session: latest };
    }),
    ...(gate === undefined ? {} : { gate }),
    ...(verdict === undefined ? {} : { verdict }),
  };
}
