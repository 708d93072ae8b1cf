import { setTimeout as sleep } from 'node:timers/promises';
import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Clock, systemClock } from '../clock/clock.js';
import { AppendConflictError, SessionBusyError } from '../errors.js';
import { type AppendMarker, markerItem, markerOf } from '../table/append-marker.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable, queryItems } from '../table/dynamo-table.js';
import { forkOriginOf, holderOf, markCancelRequested, putForkHead } from '../table/session-head.js';
import { LAST_EVENT_KEY, sortKeys } from '../table/sort-keys.js';
import { loadBody, type StoredBody, storeBody } from '../table/stored-body.js';
import { type ContextStart, contextStartSchema } from './context-start.js';
import {
  type Appended,
  type AppendNote,
  type AppendRequest,
  type AppendResult,
  DEFAULT_LEASE_MS,
  type EventLog,
  type ForkOptions,
  type ForkOrigin,
  isCancelled,
  keptNote,
  type LeaseOptions,
  type LeaseTaken,
  type LogSnapshot,
  type NewEvent,
  type SessionHolder,
  type SnapshotOptions,
} from './event-log.js';
import { toStoredEvent } from './to-stored-event.js';

/** Options of {@link DynamoEventLog}: the event-log table, and optionally the client and clock. */
export interface DynamoEventLogOptions extends DynamoTableOptions {
  /** What lease expiry is measured against. @default systemClock */
  clock?: Clock;
}

/** Events per transaction: DynamoDB allows 100 actions, two go to the head and the marker. */
const PART_EVENTS = 90;
const RACE_ATTEMPTS = 10;

type Part = Omit<AppendResult, 'replayed' | 'cancelRequested'>;
/** What one conditional transaction did: landed, or was refused (and whether a cancel alone refused it). */
type Attempt = { landed: Part } | { refused: 'cancel' | 'other' };
type EncodedEvent = { event: NewEvent; stored: StoredBody };

/**
 * An {@link EventLog} on one DynamoDB table (design: docs/decisions/0005). Each append is one
 * transaction per 90 events: a conditional update of the session head (the turn holds the
 * session, the next seq is unchanged; the lease is renewed, or dropped by a releasing append), an
 * idempotency marker and the event items. The append's note goes on the marker of its first part.
 */
export class DynamoEventLog implements EventLog {
  readonly #db: DynamoTable;
  readonly #clock: Clock;
  /** Each session's fork origin once read (`null`: not a fork); a head never changes its origin. */
  readonly #origins = new Map<string, ForkOrigin | null>();

  constructor(options: DynamoEventLogOptions) {
    this.#db = dynamoTable(options);
    this.#clock = options.clock ?? systemClock;
  }

  async append(request: AppendRequest): Promise<AppendResult> {
    const parts = partsOf(request.events);
    // Each part is encoded once, however many transactions it takes: large bodies mean chunk writes.
    let firstPart: EncodedEvent[] | undefined;
    if (parts.length === 1 && request.expectedSeq !== undefined) {
      firstPart = await this.#encodeAll(request.session, parts[0] ?? []);
      const fast = await this.#fastAppend(request, firstPart, request.expectedSeq);
      if (fast !== undefined) return fast;
    }
    // Independent reads, made together: they sit on every step's critical path.
    const [first, head] = await Promise.all([
      this.#marker(request.session, request.key, 0),
      this.#get(request.session, sortKeys.head),
    ]);
    const total = first?.parts ?? parts.length;
    const written: Array<Part & { replayed: boolean }> = [];
    for (let part = 0; part < total; part++) {
      const marker = part === 0 ? first : await this.#marker(request.session, request.key, part);
      if (marker !== undefined) {
        written.push({ ...marker, replayed: true });
        continue;
      }
      const encoded =
        (part === 0 ? firstPart : undefined) ?? (await this.#encodeAll(request.session, parts[part] ?? []));
      written.push(await this.#appendPart(request, part, total, encoded, part === 0 ? head : undefined));
    }
    // A part written by another delivery holds its events, not these: such an append is a replay.
    const replayed = written.some((part) => part.replayed);
    return {
      firstSeq: written[0]?.firstSeq ?? 1,
      count: written.reduce((sum, part) => sum + part.count, 0),
      replayed,
      // This path may have retried a while: the head as it is once the append has landed.
      ...(request.reportCancel
        ? {
            cancelRequested: isCancelled(
              holderOf(await this.#get(request.session, sortKeys.head)),
              request.turn,
            ),
          }
        : {}),
    };
  }

  /**
   * An append in one transaction at `expectedSeq`, with no read before it; `undefined` when a
   * condition other than a cancel failed (the caller reads the head and tries again). Asked to
   * report a cancel, the head's condition also refuses a turn asked to stop: the head the refusal
   * returns tells, and the append is made again without that condition.
   */
  async #fastAppend(
    request: AppendRequest,
    encoded: EncodedEvent[],
    expectedSeq: number,
  ): Promise<AppendResult | undefined> {
    const checked = request.reportCancel === true;
    const first = await this.#tryTransaction(request, 0, 1, encoded, expectedSeq, checked);
    if ('landed' in first)
      return { ...first.landed, replayed: false, ...(checked ? { cancelRequested: false } : {}) };
    if (first.refused !== 'cancel') return undefined;
    const again = await this.#tryTransaction(request, 0, 1, encoded, expectedSeq, false);
    return 'landed' in again ? { ...again.landed, replayed: false, cancelRequested: true } : undefined;
  }

  async snapshot(session: string, options: SnapshotOptions = {}): Promise<LogSnapshot> {
    const start = options.fromContext ? await this.#contextStart(session) : undefined;
    const afterSeq = Math.max(options.afterSeq ?? 0, (start?.from ?? 1) - 1);
    // Event keys sort right before the head's, and nothing else sorts between them.
    const items = await queryItems(this.#db.client, this.#db.name, session, {
      from: sortKeys.event(afterSeq + 1),
      to: sortKeys.head,
    });
    const head = items.at(-1)?.sk === sortKeys.head ? items.pop() : undefined;
    const origin = forkOriginOf(head);
    if (head !== undefined) this.#origins.set(session, origin ?? null);
    const own = await Promise.all(items.map((item) => this.#decode(session, item, session)));
    const shared =
      origin === undefined || afterSeq >= origin.seq
        ? []
        : await this.#readRange(origin.session, afterSeq, origin.seq, session);
    return {
      events: [...shared, ...own],
      holder: holderOf(head),
      mark: typeof head?.lastMark === 'string' ? head.lastMark : undefined,
      ...(typeof head?.markNote === 'string' ? { markNote: JSON.parse(head.markNote) as AppendNote } : {}),
      ...(start === undefined ? {} : { start }),
    };
  }

  /**
   * The context start the session's latest compaction wrote, if any. One that does not parse (never
   * written by this code) is ignored: the step then reads the whole log, as if there were none.
   */
  async #contextStart(session: string): Promise<ContextStart | undefined> {
    const item = await this.#get(session, sortKeys.contextStart);
    if (typeof item?.start !== 'string') return undefined;
    const parsed = contextStartSchema.safeParse(JSON.parse(item.start));
    return parsed.success ? parsed.data : undefined;
  }

  read(session: string, options: { afterSeq?: number } = {}): Promise<StoredEvent[]> {
    return this.#readRange(session, options.afterSeq ?? 0);
  }

  async fork(session: string, origin: ForkOrigin, options?: ForkOptions): Promise<void> {
    await putForkHead(this.#db.client, this.#db.name, session, origin, options);
    this.#origins.set(session, { ...origin });
  }

  async origin(session: string): Promise<ForkOrigin | undefined> {
    const known = this.#origins.get(session);
    if (known !== undefined) return known ?? undefined;
    const head = await this.#get(session, sortKeys.head);
    const origin = forkOriginOf(head);
    // A session without a head may still become a fork; one with a head never will.
    if (head !== undefined) this.#origins.set(session, origin ?? null);
    return origin;
  }

  /**
   * The session's events after `afterSeq` and up to `upTo`, labelled with `label`: its own, after
   * its fork origin's (read from the parent, in parallel, when the range reaches into them).
   */
  async #readRange(
    session: string,
    afterSeq: number,
    upTo?: number,
    label = session,
  ): Promise<StoredEvent[]> {
    const [items, origin] = await Promise.all([
      queryItems(this.#db.client, this.#db.name, session, {
        from: sortKeys.event(afterSeq + 1),
        to: upTo === undefined ? LAST_EVENT_KEY : sortKeys.event(upTo),
      }),
      this.origin(session),
    ]);
    const own = await Promise.all(items.map((item) => this.#decode(session, item, label)));
    if (origin === undefined || afterSeq >= origin.seq) return own;
    const shared = await this.#readRange(
      origin.session,
      afterSeq,
      Math.min(origin.seq, upTo ?? origin.seq),
      label,
    );
    return [...shared, ...own];
  }

  async appended(session: string, key: string): Promise<Appended | undefined> {
    const first = await this.#marker(session, key, 0);
    if (first === undefined) return undefined;
    // Only an append over 90 events has more parts: their markers say how many events landed.
    const rest = await Promise.all(
      Array.from({ length: first.parts - 1 }, (_, index) => this.#marker(session, key, index + 1)),
    );
    const count = rest.reduce((sum, part) => sum + (part?.count ?? 0), first.count);
    return { firstSeq: first.firstSeq, count, ...(first.note === undefined ? {} : { note: first.note }) };
  }

  async acquireTurn(session: string, turn: string, options: LeaseOptions = {}): Promise<LeaseTaken> {
    const now = this.#clock.now();
    // Without a length, the session keeps the one its holder chose (StartTurn after submitTurn).
    const leaseMs = options.leaseMs === undefined ? 'if_not_exists(leaseMs, :leaseMs)' : ':leaseMs';
    try {
      const { Attributes } = await this.#db.client.send(
        new UpdateCommand({
          TableName: this.#db.name,
          Key: { pk: session, sk: sortKeys.head },
          UpdateExpression: `SET turn = :turn, leaseMs = ${leaseMs}, leaseUntil = :now + ${leaseMs}, nextSeq = if_not_exists(nextSeq, :first)`,
          // A head without a lease (written before leases existed) counts as expired.
          ...(options.takeOver
            ? {}
            : {
                ConditionExpression:
                  'attribute_not_exists(turn) OR turn = :turn OR attribute_not_exists(leaseUntil) OR (leaseUntil < :now AND (attribute_not_exists(holdUntil) OR holdUntil < :now))',
              }),
          ExpressionAttributeValues: {
            ':turn': turn,
            ':leaseMs': options.leaseMs ?? DEFAULT_LEASE_MS,
            ':now': now,
            ':first': 1,
          },
          ReturnValues: 'ALL_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      const previous = Attributes?.turn as string | undefined;
      return previous !== undefined && previous !== turn ? { previous } : {};
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const until = Math.max(Number(error.Item?.leaseUntil?.N ?? 0), Number(error.Item?.holdUntil?.N ?? 0));
      throw new SessionBusyError(session, error.Item?.turn?.S, turn, until || undefined);
    }
  }

  async holder(session: string): Promise<SessionHolder | undefined> {
    return holderOf(await this.#get(session, sortKeys.head));
  }

  requestCancel(session: string, turn: string): Promise<boolean> {
    return markCancelRequested(this.#db.client, this.#db.name, session, turn);
  }

  async #appendPart(
    request: AppendRequest,
    part: number,
    total: number,
    encoded: EncodedEvent[],
    knownHead: Record<string, unknown> | undefined,
  ) {
    const { session, turn, key } = request;
    for (let attempt = 1; ; attempt++) {
      const head =
        attempt === 1 && knownHead !== undefined ? knownHead : await this.#get(session, sortKeys.head);
      if (head?.turn !== turn)
        throw new SessionBusyError(
          session,
          head?.turn as string | undefined,
          turn,
          head?.leaseUntil as number | undefined,
        );
      const appended = await this.#tryTransaction(
        request,
        part,
        total,
        encoded,
        head.nextSeq as number,
        false,
      );
      if ('landed' in appended) return { ...appended.landed, replayed: false };
      // A duplicate delivery of this append won the race: report its result (C3).
      const marker = await this.#marker(session, key, part);
      if (marker !== undefined) return { ...marker, replayed: true };
      if (attempt === RACE_ATTEMPTS) throw new AppendConflictError(session, attempt);
      await sleep(Math.random() * 10 * attempt);
    }
  }

  /**
   * One conditional transaction at `firstSeq`, refused (`cancel`) when `refuseCancelled` and the
   * head's turn was asked to stop while all else held.
   */
  async #tryTransaction(
    request: AppendRequest,
    part: number,
    total: number,
    encoded: EncodedEvent[],
    firstSeq: number,
    refuseCancelled: boolean,
  ): Promise<Attempt> {
    try {
      await this.#db.client.send(
        new TransactWriteCommand({
          TransactItems: this.#transaction(request, part, total, firstSeq, encoded, refuseCancelled),
        }),
      );
      return { landed: { firstSeq, count: encoded.length } };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [head, ...others] = error.CancellationReasons ?? [];
      // The old head comes back in DynamoDB's own encoding (the document client does not convert it).
      const old = head?.Item;
      const cancelAlone =
        refuseCancelled &&
        old?.turn?.S === request.turn &&
        old.cancelTurn?.S === request.turn &&
        old.nextSeq?.N === String(firstSeq) &&
        others.every((reason) => reason.Code === 'None');
      return { refused: cancelAlone ? 'cancel' : 'other' };
    }
  }

  #transaction(
    request: AppendRequest,
    part: number,
    total: number,
    firstSeq: number,
    encoded: EncodedEvent[],
    refuseCancelled: boolean,
  ) {
    const { session, turn, key } = request;
    const TableName = this.#db.name;
    // Only the last part of a long append may free the session: the others still need it.
    const release = request.release === true && part === total - 1;
    const note = part === 0 ? request.note : undefined;
    const marker = markerItem(session, key, part, {
      firstSeq,
      count: encoded.length,
      parts: total,
      ...(note === undefined ? {} : { note }),
    });
    const markNote = request.mark === undefined ? undefined : keptNote(note);
    // The context start goes with the events it follows (after the head, whose refusal comes first).
    const start = request.contextStart !== undefined && part === total - 1 ? request.contextStart : undefined;
    return [
      {
        Update: {
          TableName,
          Key: { pk: session, sk: sortKeys.head },
          ...headUpdate(
            release ? 'release' : request.holdUntil,
            request.mark === undefined ? undefined : { keepsNote: markNote !== undefined },
          ),
          ConditionExpression: `turn = :turn AND nextSeq = :expected${refuseCancelled ? ' AND (attribute_not_exists(cancelTurn) OR cancelTurn <> :turn)' : ''}`,
          ExpressionAttributeValues: {
            ':turn': turn,
            ':expected': firstSeq,
            ':next': firstSeq + encoded.length,
            ...(release ? {} : { ':now': this.#clock.now(), ':leaseMs': DEFAULT_LEASE_MS }),
            ...(request.holdUntil && !release ? { ':hold': request.holdUntil } : {}),
            ...(request.mark === undefined ? {} : { ':mark': request.mark }),
            ...(markNote === undefined ? {} : { ':markNote': markNote }),
          },
          ...(refuseCancelled ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
        },
      },
      { Put: { TableName, Item: marker, ConditionExpression: 'attribute_not_exists(sk)' } },
      ...encoded.map((entry, index) => ({
        Put: {
          TableName,
          Item: eventItem(session, firstSeq + index, entry),
          ConditionExpression: 'attribute_not_exists(sk)',
        },
      })),
      ...(start === undefined
        ? []
        : [
            {
              Put: {
                TableName,
                Item: { pk: session, sk: sortKeys.contextStart, start: JSON.stringify(start) },
              },
            },
          ]),
    ];
  }

  #encodeAll(session: string, events: readonly NewEvent[]): Promise<EncodedEvent[]> {
    return Promise.all(events.map((event) => this.#encode(session, event)));
  }

  async #encode(session: string, event: NewEvent): Promise<EncodedEvent> {
    return {
      event,
      stored: await storeBody(this.#db.client, this.#db.name, session, JSON.stringify(event.event)),
    };
  }

  /** An event item of `session` (whose partition holds its large bodies), as `label`'s log shows it. */
  async #decode(session: string, item: Record<string, unknown>, label: string): Promise<StoredEvent> {
    const body = await loadBody(this.#db.client, this.#db.name, session, item);
    const event: NewEvent = { event: JSON.parse(body) as PersistedEvent };
    if (typeof item.batch === 'string') event.batch = item.batch;
    if (typeof item.position === 'number') event.position = item.position;
    return toStoredEvent(label, item.seq as number, event);
  }

  async #marker(session: string, key: string, part: number): Promise<AppendMarker | undefined> {
    const item = await this.#get(session, sortKeys.append(key, part));
    return item && markerOf(item);
  }

  async #get(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.#db.client.send(
      new GetCommand({ TableName: this.#db.name, Key: { pk, sk }, ConsistentRead: true }),
    );
    return Item;
  }
}

function eventItem(session: string, seq: number, entry: EncodedEvent): Record<string, unknown> {
  const { event } = entry.event;
  return {
    pk: session,
    sk: sortKeys.event(seq),
    seq,
    type: event.type,
    ...(entry.event.batch === undefined ? {} : { batch: entry.event.batch }),
    ...(entry.event.position === undefined ? {} : { position: entry.event.position }),
    ...entry.stored,
  };
}

/**
 * How an append updates the session head besides its next seq: frees it (`release`), or renews the
 * lease and sets (`holdUntil` > 0), ends (0) or keeps (`undefined`) the hold; when it `marks`, sets
 * the mark, with its note (`keepsNote`) or without one.
 */
function headUpdate(
  change: 'release' | number | undefined,
  marks: { keepsNote: boolean } | undefined,
): { UpdateExpression: string } {
  const set = ['nextSeq = :next'];
  const remove: string[] = [];
  if (marks !== undefined) set.push('lastMark = :mark');
  if (marks?.keepsNote) set.push('markNote = :markNote');
  else if (marks !== undefined) remove.push('markNote');
  if (change === 'release') remove.push('turn', 'leaseMs', 'leaseUntil', 'holdUntil');
  else {
    set.push('leaseUntil = :now + if_not_exists(leaseMs, :leaseMs)');
    if (change === 0) remove.push('holdUntil');
    else if (change !== undefined) set.push('holdUntil = :hold');
  }
  const removed = remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : '';
  return { UpdateExpression: `SET ${set.join(', ')}${removed}` };
}

/** The events of one append in transaction-sized parts; an empty append is one empty part. */
function partsOf(events: readonly NewEvent[]): Array<readonly NewEvent[]> {
  const parts: Array<readonly NewEvent[]> = [];
  for (let start = 0; start < events.length; start += PART_EVENTS)
    parts.push(events.slice(start, start + PART_EVENTS));
  return parts.length > 0 ? parts : [[]];
}
