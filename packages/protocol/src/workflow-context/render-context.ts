import { renderGoalDocument } from './goal-document.js';
import type { RenderContextInput } from './render-input.js';
import { renderTaskDocument } from './task-document.js';

/**
 * The XML document a workflow model call gets as its user message, byte for byte per E1–E9: a
 * goal document for `render: "goal"`, a task document for `render: "task"`. Pure and
 * deterministic; give it input that `renderContextInputSchema` accepted.
 */
export function renderContext(input: RenderContextInput): string {
  const { current, task } = input;
  if (input.render === 'goal' && current !== undefined) return renderGoalDocument({ ...input, current });
  if (input.render === 'task' && task !== undefined) return renderTaskDocument({ ...input, task });
  const needed = input.render === 'goal' ? 'current' : 'task';
  // The schema refuses this input; a caller that skipped it made a programming mistake.
  throw new TypeError(
    `render "${input.render}" needs "${needed}", which is missing: check the input with renderContextInputSchema first.`,
  );
}
