import * as z from 'zod/mini';
import { storedValue } from '../sign-in/stored-value.js';

/** The colour themes a reader can pick: `system` follows `prefers-color-scheme`. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;

/** One of {@link THEME_CHOICES}. */
export type ThemeChoice = (typeof THEME_CHOICES)[number];

const KEY = 'agentstep.console.theme';
const themeSchema = z.enum(THEME_CHOICES);

/** The theme this browser picked last (localStorage), `system` when it picked none. */
export function storedThemeChoice(storage: Storage): ThemeChoice {
  return storedValue(storage, KEY, themeSchema) ?? 'system';
}

/** Keeps `choice` for the next visit; `system` keeps nothing, so the page follows the system again. */
export function rememberThemeChoice(storage: Storage, choice: ThemeChoice): void {
  if (choice === 'system') storage.removeItem(KEY);
  else storage.setItem(KEY, JSON.stringify(choice));
}

/**
 * Shows `choice` on `root` (the page's `<html>`): `data-theme="light"|"dark"` sets the stylesheet's
 * `color-scheme`, none lets `prefers-color-scheme` decide.
 */
export function applyThemeChoice(root: HTMLElement, choice: ThemeChoice): void {
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}
