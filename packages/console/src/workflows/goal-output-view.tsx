import type { WorkflowGoalOutput } from '@agentstep/client';
import { useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { FoldedText } from '../common/folded-text.js';

/**
 * A goal's output (an agent's, or one iteration's), folded when large, with the fields it gave, and
 * the exact context document the goal saw, read when it is opened.
 */
export function GoalOutputView({ run, output }: { run: string; output: WorkflowGoalOutput }) {
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
      <ContextDocument run={run} goal={output.agent ? `${output.goal}[${output.agent}]` : output.goal} />
    </article>
  );
}

/** The goal's context document (the XML it last saw as its message), read once it is unfolded. */
function ContextDocument({ run, goal }: { run: string; goal: string }) {
  const client = useClient();
  const [document, setDocument] = useState<string>();
  const [error, setError] = useState<unknown>();
  return (
    <details
      class="context-document"
      onToggle={(event) => {
        if (!event.currentTarget.open || document !== undefined) return;
        client.workflowContext(run, goal).then(setDocument, setError);
      }}
    >
      <summary>Context document</summary>
      <ErrorNote error={error} />
      {document !== undefined && (
        <pre class="text">
          <code>{document}</code>
        </pre>
      )}
    </details>
  );
}
