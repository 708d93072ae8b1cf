import { sessionHref } from '../hash-route.js';
import { splitAtIds } from './split-at-ids.js';

/**
 * `text` with each of `sessions` it names as a link to that session's page: a run's end message
 * ("… see session wf-1.3.") names the session to open, and the page opens it.
 */
export function LinkedIds({ text, sessions }: { text: string; sessions: readonly string[] }) {
  return (
    <>
      {splitAtIds(text, sessions).map(({ text: part, isId }, index) =>
        isId ? (
          <a key={`${index}-${part}`} href={sessionHref(part)}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}
