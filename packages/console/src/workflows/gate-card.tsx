import type { GateDecision, WorkflowGate } from '@agentstep/client';
import { useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { FoldedText } from '../common/folded-text.js';

/**
 * A human gate of a run, named by its goal (its id small beside it): what it asks, and while it
 * waits, Approve, Correct (with a text) and Abort.
 */
export function GateCard({ run, gate }: { run: string; gate: WorkflowGate }) {
  const client = useClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>();
  const decide = async (decision: GateDecision) => {
    setError(undefined);
    try {
      await client.decideGate(run, gate.gate, decision);
    } catch (failure) {
      setError(failure);
    }
  };
  const textId = `correction-${gate.gate}`;
  return (
    <article class="gate-card">
      <h3>
        Gate on {gate.goal}: {gate.status}
        {gate.by ? ` by ${gate.by}` : ''} <small class="id">{gate.gate}</small>
      </h3>
      <FoldedText value={gate.text} />
      {gate.status === 'waiting' && (
        <>
          <label for={textId}>Correction</label>
          <textarea
            id={textId}
            rows={3}
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <div class="actions">
            <button type="button" onClick={() => decide({ decision: 'approve' })}>
              Approve
            </button>
            <button
              type="button"
              onClick={() => decide({ decision: 'correct', text })}
              disabled={text.trim() === ''}
            >
              Correct
            </button>
            <button type="button" class="danger" onClick={() => decide({ decision: 'abort' })}>
              Abort
            </button>
          </div>
        </>
      )}
      <ErrorNote error={error} />
    </article>
  );
}
