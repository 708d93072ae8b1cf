/** What a directory lists: sessions a tenant started over the API, or its workflow runs. */
export type DirectoryKind = 'session' | 'workflow';

/** One listed session or run: its id as its tenant knows it, and when it was created (ms since the epoch). */
export interface DirectoryEntry {
  id: string;
  createdAt: number;
}

/**
 * Which sessions and workflow runs each owner (a tenant's tag) created, for listing them: the
 * event log is keyed by session and cannot list. Adding an id again keeps its first record.
 */
export interface SessionDirectory {
  add(owner: string, kind: DirectoryKind, entry: DirectoryEntry): Promise<void>;
  /** Every id of `kind` the owner created, newest first. */
  list(owner: string, kind: DirectoryKind): Promise<DirectoryEntry[]>;
}

/** A {@link SessionDirectory} in process memory. */
export class InMemorySessionDirectory implements SessionDirectory {
  readonly #entries = new Map<string, Map<string, DirectoryEntry>>();

  async add(owner: string, kind: DirectoryKind, entry: DirectoryEntry): Promise<void> {
    const key = `${owner}\n${kind}`;
    const entries = this.#entries.get(key) ?? new Map<string, DirectoryEntry>();
    if (!entries.has(entry.id)) entries.set(entry.id, { ...entry });
    this.#entries.set(key, entries);
  }

  async list(owner: string, kind: DirectoryKind): Promise<DirectoryEntry[]> {
    return newestFirst([...(this.#entries.get(`${owner}\n${kind}`)?.values() ?? [])]);
  }
}

/** Entries newest first; ids break ties so the order is stable. */
export function newestFirst(entries: DirectoryEntry[]): DirectoryEntry[] {
  return entries.sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
}
