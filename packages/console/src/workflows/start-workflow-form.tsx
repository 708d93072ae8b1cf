import type { ParsedAgentfile } from '@agentstep/protocol';
import { useEffect, useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { workflowHref } from '../hash-route.js';

/**
 * Starts a workflow run from an Agentfile pasted or uploaded here: its problems are shown at their
 * line and column as it is written, its declared inputs become fields (their defaults as
 * placeholders), and a started run opens its page.
 */
export function StartWorkflowForm() {
  const client = useClient();
  const [agentfile, setAgentfile] = useState('');
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const parsed = useParsedAgentfile(agentfile);
  const declared = parsed?.ok ? parsed.spec.inputs : [];
  const start = async () => {
    setError(undefined);
    try {
      const given = Object.fromEntries(
        declared.flatMap(({ name }) => (inputs[name] ? [[name, inputs[name]]] : [])),
      );
      const { run } = await client.startWorkflow({ agentfile, inputs: given });
      location.hash = workflowHref(run);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <form
      class="start-workflow"
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
    >
      <h2>Start a workflow run</h2>
      <label for="agentfile">Agentfile</label>
      <textarea
        id="agentfile"
        rows={10}
        spellcheck={false}
        value={agentfile}
        onInput={(event) => setAgentfile(event.currentTarget.value)}
      />
      <label for="agentfile-upload">or upload one</label>
      <input
        id="agentfile-upload"
        type="file"
        accept=".agentfile,text/plain"
        onChange={async (event) => setAgentfile((await event.currentTarget.files?.[0]?.text()) ?? '')}
      />
      {parsed && !parsed.ok && (
        <ul class="problems" aria-label="Problems">
          {parsed.errors.map(({ line, column, message }) => (
            <li key={`${line}:${column}:${message}`}>
              <code>
                {line}:{column}
              </code>{' '}
              {message}
            </li>
          ))}
        </ul>
      )}
      {declared.map(({ name, default: fallback }) => (
        <div class="field" key={name}>
          <label for={`input-${name}`}>{name}</label>
          <input
            id={`input-${name}`}
            value={inputs[name] ?? ''}
            placeholder={fallback ?? 'required'}
            onInput={(event) => setInputs({ ...inputs, [name]: event.currentTarget.value })}
          />
        </div>
      ))}
      <button type="submit" disabled={!parsed?.ok}>
        Start run
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/**
 * The Agentfile parsed as it is written (`undefined` while empty); the parser is loaded with the
 * first text, so pages that start no workflow never download it.
 */
function useParsedAgentfile(agentfile: string): ParsedAgentfile | undefined {
  const [parsed, setParsed] = useState<ParsedAgentfile>();
  useEffect(() => {
    let current = true;
    if (agentfile.trim() === '') setParsed(undefined);
    else
      void import('@agentstep/protocol').then(({ parseAgentfile }) => {
        if (current) setParsed(parseAgentfile(agentfile));
      });
    return () => {
      current = false;
    };
  }, [agentfile]);
  return parsed;
}
