import { useLayoutEffect, useState } from 'preact/hooks';
import {
  applyThemeChoice,
  rememberThemeChoice,
  storedThemeChoice,
  THEME_CHOICES,
  type ThemeChoice,
} from './theme-choice.js';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

// Applied as the bundle loads, before the console's first request: a reader who picked a theme
// never sees the other one flash while the page starts.
applyThemeChoice(document.documentElement, storedThemeChoice(localStorage));

/** A select of the colour theme (system, light, dark), applied at once and remembered in localStorage. */
export function ThemeToggle() {
  const [choice, setChoice] = useState(() => storedThemeChoice(localStorage));
  useLayoutEffect(() => applyThemeChoice(document.documentElement, choice), [choice]);
  const choose = (next: ThemeChoice) => {
    rememberThemeChoice(localStorage, next);
    setChoice(next);
  };
  return (
    <label class="theme">
      Theme
      <select value={choice} onChange={(event) => choose(themeOf(event.currentTarget.value))}>
        {THEME_CHOICES.map((option) => (
          <option key={option} value={option}>
            {LABELS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}

const themeOf = (value: string): ThemeChoice => THEME_CHOICES.find((option) => option === value) ?? 'system';
