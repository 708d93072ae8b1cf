import type { TargetedKeyboardEvent } from 'preact';
import type { SessionFilter, StatusChoice } from './session-filter.js';

/** The status filter's choices, in the order the select lists them. */
const STATUS_CHOICES: ReadonlyArray<[StatusChoice, string]> = [
  ['', 'all'],
  ['running', 'running'],
  ['waiting', 'waiting'],
  ['idle', 'idle'],
  ['failed', 'last turn failed'],
];

/**
 * The sessions list's filters: a search box for titles and ids, the status and the first creation
 * date. Each change is handed to `onChange`; Enter in the search box to `onSubmit` (search now),
 * ArrowDown there to `onLeave` (move to the list).
 */
export function SessionFilters({
  filter,
  onChange,
  onSubmit,
  onLeave,
}: {
  filter: SessionFilter;
  onChange: (filter: SessionFilter) => void;
  onSubmit: () => void;
  onLeave: () => void;
}) {
  const leaveOnArrowDown = (event: TargetedKeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowDown') return;
    event.preventDefault();
    onLeave();
  };
  return (
    <search aria-label="Find sessions">
      <form
        class="actions"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <label>
          Search titles and ids{' '}
          <input
            type="search"
            value={filter.text}
            onInput={(event) => onChange({ ...filter, text: event.currentTarget.value })}
            onKeyDown={leaveOnArrowDown}
          />
        </label>
        <label>
          Status{' '}
          <select
            value={filter.status}
            onChange={(event) => onChange({ ...filter, status: event.currentTarget.value as StatusChoice })}
          >
            {STATUS_CHOICES.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <label>
          Created on or after{' '}
          <input
            type="date"
            value={filter.createdFrom}
            onChange={(event) => onChange({ ...filter, createdFrom: event.currentTarget.value })}
          />
        </label>
      </form>
    </search>
  );
}
