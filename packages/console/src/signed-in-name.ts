const KEY = 'agentstep.console.name';

/** The name the console signs in with (`Authorization: Bearer <name>` for `serve --auth dev`), if one was given. */
export function signedInName(): string | undefined {
  return localStorage.getItem(KEY) ?? undefined;
}

/** Remembers the name to sign in with, for this browser. */
export function rememberName(name: string): void {
  localStorage.setItem(KEY, name);
}
