import type { WorkflowCorrection } from './render-input.js';
import { xmlElement } from './xml-element.js';
import { xmlValue } from './xml-value.js';

/**
 * `<correction source="…">` holding the correction's text, escaped and never interpolated; undefined
 * when there is no correction or its text is empty (E1).
 */
export function correctionElement(correction: WorkflowCorrection | undefined): string | undefined {
  if (correction === undefined || correction.text === '') return undefined;
  return xmlElement('correction', { source: correction.source }, xmlValue(correction.text));
}
