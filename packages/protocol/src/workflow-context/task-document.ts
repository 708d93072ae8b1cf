import { correctionElement } from './correction-element.js';
import { instructionText } from './instruction-text.js';
import { priorGoalElements } from './prior-goal-elements.js';
import type { RenderContextInput, TaskAssignment } from './render-input.js';
import { renderVariables } from './variables.js';
import { xmlElement } from './xml-element.js';
import { xmlLines } from './xml-lines.js';
import { xmlValue } from './xml-value.js';

/** A task document's input: a {@link RenderContextInput} with the task to give. */
export type TaskDocumentInput = Omit<RenderContextInput, 'task'> & { task: TaskAssignment };

/**
 * The user message of a USING agent or a dynamic sub-agent (E7): `<task role parent-goal>` holding
 * the task text with its E5 sentence (a USING agent: the prior goals' unindented `<context>` and the
 * text in `<objective>`), then, after a blank line, the correction if any; nothing after it.
 */
export function renderTaskDocument(input: TaskDocumentInput): string {
  const { role, parent_goal, include_prior } = input.task;
  const body = include_prior ? usingAgentBody(input) : xmlValue(taskText(input));
  const task = xmlElement('task', { role, 'parent-goal': parent_goal }, body);
  return [task, correctionElement(input.correction)].filter((part) => part !== undefined).join('\n\n');
}

function taskText(input: TaskDocumentInput): string {
  const { task, outputs, interpolate } = input.task;
  return instructionText(task, outputs, interpolate ? renderVariables(input) : undefined);
}

/**
 * E7 says nothing of loops or convergence in a task's context. Ours: loop iterations appear as
 * in a goal's context (`<iteration n>` after the goals outside loops), unindented like every
 * entry here, with no blank lines; `converge` is not rendered: E6 puts the history and the
 * instruction in the goal document only, and E7 lists everything a task document holds.
 */
function usingAgentBody(input: TaskDocumentInput): string {
  const entries = priorGoalElements(input.prior ?? [], '');
  const context = entries.length === 0 ? '' : `<context>\n${xmlLines(entries)}</context>\n\n`;
  return `${context}${xmlElement('objective', {}, xmlValue(taskText(input)))}\n`;
}
