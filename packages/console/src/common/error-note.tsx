import { AgentStepApiError, type FieldProblem } from '@agentstep/client';
import { messageOf } from './message-of.js';

/**
 * A refusal or failure said in one line, with each field the API named (or `fields` found before
 * sending); nothing when there is none, nor for a `401` (the sign-in panel asks who is calling).
 */
export function ErrorNote({ error, fields: found = [] }: { error: unknown; fields?: FieldProblem[] }) {
  if (error === undefined || (error instanceof AgentStepApiError && error.status === 401)) return null;
  const message = messageOf(error);
  const fields = error instanceof AgentStepApiError ? (error.fields ?? []) : found;
  return (
    <div class="error-note" role="alert">
      <p>{message}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map((field) => (
            <li key={field.path}>
              <code>{field.path}</code>: {field.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
