import type { WorkflowGoalOutput } from '@agentstep/client';
import { FoldedText } from '../common/folded-text.js';

/** A goal's output (an agent's, or one iteration's), folded when large, with the fields it gave. */
export function GoalOutputView({ output }: { output: WorkflowGoalOutput }) {
  return (
    <article class="goal">
      <h3>
        {output.goal}
        {output.agent ? `[${output.agent}]` : ''}
        {output.iteration === undefined ? '' : ` · ${output.loop ?? 'iteration'} ${output.iteration}`}
        {output.note ? ` · ${output.note}` : ''}
      </h3>
      <FoldedText value={output.output} />
      {output.fields && <FoldedText value={output.fields} />}
    </article>
  );
}
