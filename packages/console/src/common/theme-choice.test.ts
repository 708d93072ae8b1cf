import { describe, expect, it } from 'vitest';
import { rememberThemeChoice, storedThemeChoice } from './theme-choice.js';

/** A Storage kept in a Map, as localStorage keeps strings. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, value);
    },
  };
}

describe('storedThemeChoice', () => {
  it('follows the system until a theme is picked, then keeps the pick', () => {
    const storage = memoryStorage();
    expect(storedThemeChoice(storage)).toBe('system');
    rememberThemeChoice(storage, 'dark');
    expect(storedThemeChoice(storage)).toBe('dark');
    rememberThemeChoice(storage, 'system');
    expect(storedThemeChoice(storage)).toBe('system');
    expect(storage.length).toBe(0);
  });

  it.each(['"purple"', 'not json', '42'])('reads the kept value %s as system', (kept) => {
    const storage = memoryStorage();
    storage.setItem('agentstep.console.theme', kept);
    expect(storedThemeChoice(storage)).toBe('system');
  });
});
