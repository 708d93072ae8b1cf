import { sessionHref } from '../hash-route.js';
import { type GoalNode, runDiagram } from './run-diagram-model.js';
import type { WorkflowRecordEvent } from './use-workflow-run.js';

/**
 * A workflow run drawn in its own terms: each step (`RUN`, `LOOP`) a lane of its goals in order,
 * each goal a node with its state, iterations, USING agents side by side, gate and verdict; a node
 * opens the goal's latest session, an agent its own.
 */
export function RunDiagram({ records }: { records: readonly WorkflowRecordEvent[] }) {
  const lanes = runDiagram(records);
  if (lanes.length === 0) return null;
  return (
    <section class="run-diagram" aria-label="The run's goals">
      <h2>Goals, as the workflow runs them</h2>
      {lanes.map((lane) => (
        <div class="lane" key={lane.step}>
          <p class="lane-name">
            {lane.kind.toUpperCase()} {lane.step}
          </p>
          <ol class="nodes">
            {lane.goals.map((node) => (
              <li key={node.goal}>
                <GoalNodeView node={node} />
              </li>
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}

function GoalNodeView({ node }: { node: GoalNode }) {
  const name = node.session ? <a href={sessionHref(node.session)}>{node.goal}</a> : node.goal;
  return (
    <article class={`node ${node.state}`} data-goal={node.goal}>
      <h3>{name}</h3>
      <p class="node-state">
        {node.kind === 'converge' ? 'converge · ' : ''}
        {node.state}
        {node.iterations > 1 ? ` · ${node.iterations} iterations` : ''}
      </p>
      {node.agents.length > 0 && (
        <ul class="agents" aria-label={`Agents of ${node.goal}`}>
          {node.agents.map(({ agent, session }) => (
            <li key={agent}>{session ? <a href={sessionHref(session)}>{agent}</a> : agent}</li>
          ))}
        </ul>
      )}
      {node.gate && <p class={`badge gate ${node.gate}`}>gate: {node.gate}</p>}
      {node.verdict && <p class="badge verdict">verdict: {node.verdict}</p>}
    </article>
  );
}
