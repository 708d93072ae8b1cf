import { type DraftPosition, type EventLog, eventLogWith, type StepDrafts } from '@agentstep/runtime';
import { Listeners } from './listeners.js';
import type { LiveSteps, LiveText } from './live-steps.js';
import { StepTexts } from './step-texts.js';

/** Options of {@link DraftLiveSteps}. */
export interface DraftLiveStepsOptions {
  /** How often a followed session's drafts are read. @default 100 */
  pollMs?: number;
}

/** A session someone listens to: where its drafts were read up to, and its steps' parsers. */
interface Followed {
  /** Where the next read starts; `undefined` until the session's latest step was read through. */
  position: DraftPosition | undefined;
  synced: boolean;
  texts: StepTexts;
  reading: Promise<void>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * {@link LiveSteps} read from the drafts model steps in other processes write (a `DynamoStepStream`
 * in a Lambda function): while a session has a listener, its new drafts are read every `pollMs`
 * and parsed as {@link StepTexts} does for `InMemoryLiveSteps`, so listeners get the same pieces
 * (coalesced into fewer, longer ones). What a session's latest step wrote before its first listener
 * came is read but not handed out. Give the streams the log `watch` returns: a read that finds new
 * events first reads the drafts, so a step's last pieces are handed out before its stored events.
 */
export class DraftLiveSteps implements LiveSteps {
  readonly #drafts: StepDrafts;
  readonly #pollMs: number;
  readonly #listeners = new Listeners<LiveText>();
  readonly #followed = new Map<string, Followed>();

  constructor(drafts: StepDrafts, options: DraftLiveStepsOptions = {}) {
    this.#drafts = drafts;
    this.#pollMs = options.pollMs ?? 100;
  }

  subscribe(session: string, listener: (text: LiveText) => void): () => void {
    const remove = this.#listeners.add(session, listener);
    if (!this.#followed.has(session)) this.#follow(session);
    return () => {
      remove();
      if (this.#listeners.has(session)) return;
      clearTimeout(this.#followed.get(session)?.timer);
      this.#followed.delete(session);
    };
  }

  /** `log`, whose reads that find new events of a followed session first read its drafts. */
  watch(log: EventLog): EventLog {
    const read: EventLog['read'] = async (session, options) => {
      const events = await log.read(session, options);
      if (events.length > 0) await this.#read(session);
      return events;
    };
    return eventLogWith(log, { read });
  }

  #follow(session: string): void {
    const followed: Followed = {
      position: undefined,
      synced: false,
      texts: new StepTexts(),
      reading: Promise.resolve(),
      timer: undefined,
    };
    this.#followed.set(session, followed);
    const poll = async () => {
      await this.#read(session);
      if (this.#followed.get(session) === followed) followed.timer = setTimeout(poll, this.#pollMs);
    };
    void poll();
  }

  /** Reads `session`'s new drafts, after any read under way; a failed read is tried again at the next. */
  #read(session: string): Promise<void> {
    const followed = this.#followed.get(session);
    if (followed === undefined) return Promise.resolve();
    followed.reading = followed.reading.then(() => this.#readNew(session, followed)).catch(() => {});
    return followed.reading;
  }

  async #readNew(session: string, followed: Followed): Promise<void> {
    const drafts = followed.synced
      ? await this.#drafts.after(session, followed.position)
      : await this.#drafts.latest(session);
    for (const { step, part, afterSeq, text } of drafts) {
      const pieces = followed.texts.push({ session, step, text }, () => afterSeq);
      followed.position = { step, part };
      if (!followed.synced || this.#followed.get(session) !== followed) continue;
      for (const piece of pieces) this.#listeners.hand(session, piece);
    }
    followed.synced = true;
  }
}
