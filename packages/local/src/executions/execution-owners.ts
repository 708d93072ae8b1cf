import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Requester, requesterSchema } from '@agentstep/protocol';
import * as z from 'zod';
import { thisProcess } from './this-process.js';

/** The process that runs a turn's execution: its pid, and a name no later process with that pid shares. */
export interface ExecutionOwner {
  pid: number;
  instance: string;
}

/** A turn whose execution a process on this machine runs, as its owner recorded it. */
export interface OwnedTurn {
  session: string;
  turn: string;
  /** Who asked for the turn, as its end is announced. */
  request: Requester | null;
  owner: ExecutionOwner;
}

const ownedTurnSchema = z.object({
  session: z.string(),
  turn: z.string(),
  request: requesterSchema.nullable(),
  owner: z.object({ pid: z.number().int(), instance: z.string() }),
});

/**
 * Which process runs each turn on a project folder's store: one small file per running turn in
 * `folder` (`.agentstep/executions/`), written when its execution starts and removed once the turn
 * is closed. A file whose owner is gone names a turn nobody will close: see `closeOrphans` of
 * `LocalExecutionStarter`.
 */
export class ExecutionOwners {
  readonly #folder: string;
  readonly #owner: ExecutionOwner;

  /** @param options.owner who claims turns here @default this process */
  constructor(folder: string, options: { owner?: ExecutionOwner } = {}) {
    this.#folder = folder;
    this.#owner = options.owner ?? thisProcess.owner;
  }

  /** Records that the owner (this process) runs the turn. */
  claim(turn: Omit<OwnedTurn, 'owner'>): void {
    mkdirSync(this.#folder, { recursive: true });
    const owned: OwnedTurn = { ...turn, owner: this.#owner };
    writeFileSync(this.#file(turn), JSON.stringify(owned));
  }

  /** Forgets the turn: it is closed. */
  release(turn: { session: string; turn: string }): void {
    rmSync(this.#file(turn), { force: true });
  }

  /** Every turn recorded, by whichever process; unreadable files are skipped. */
  list(): OwnedTurn[] {
    const entries = existsSync(this.#folder) ? readdirSync(this.#folder, { withFileTypes: true }) : [];
    const names = entries.flatMap((entry) =>
      entry.isFile() && entry.name.endsWith('.json') ? [entry.name] : [],
    );
    return names.flatMap((name) => {
      const parsed = ownedTurnSchema.safeParse(readJson(join(this.#folder, name)));
      return parsed.success ? [parsed.data] : [];
    });
  }

  #file({ session, turn }: { session: string; turn: string }): string {
    return join(this.#folder, `${encodeURIComponent(session)}@${encodeURIComponent(turn)}.json`);
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
