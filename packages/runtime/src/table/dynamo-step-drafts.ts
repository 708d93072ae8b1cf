import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type Clock, systemClock } from '../clock/clock.js';
import type { DraftPosition, StepDraft, StepDrafts } from '../session/step-drafts.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable, queryItems } from './dynamo-table.js';
import { sortKeys } from './sort-keys.js';

/** The attribute the event-log table's TTL reads: seconds since the Unix epoch. */
export const DRAFT_EXPIRY_ATTRIBUTE = 'expiresAt';

/** How long a draft outlives its write before the table's TTL may remove it. */
const DRAFT_LIFETIME_SECONDS = 3600;

/** Above every draft key: digits sort below `~`. */
const LAST_DRAFT_KEY = `${sortKeys.draftPrefix()}~`;

/** Options of {@link DynamoStepDrafts}: the event-log table, and optionally the client and clock. */
export interface DynamoStepDraftsOptions extends DynamoTableOptions {
  /** What a draft's expiry is counted from. @default systemClock */
  clock?: Clock;
}

/**
 * {@link StepDrafts} in the event-log table, beside the session's log items (sort keys `d#step#part`,
 * outside the `e#` range `DynamoEventLog.read` queries), each removed by the table's TTL an hour on.
 */
export class DynamoStepDrafts implements StepDrafts {
  readonly #db: DynamoTable;
  readonly #clock: Clock;

  constructor(options: DynamoStepDraftsOptions) {
    this.#db = dynamoTable(options);
    this.#clock = options.clock ?? systemClock;
  }

  async put({ session, step, part, afterSeq, text }: StepDraft): Promise<void> {
    const expiresAt = Math.floor(this.#clock.now() / 1000) + DRAFT_LIFETIME_SECONDS;
    await this.#db.client.send(
      new PutCommand({
        TableName: this.#db.name,
        Item: {
          pk: session,
          sk: sortKeys.draft(step, part),
          afterSeq,
          text,
          [DRAFT_EXPIRY_ATTRIBUTE]: expiresAt,
        },
      }),
    );
  }

  async latest(session: string): Promise<StepDraft[]> {
    const { Items } = await this.#db.client.send(
      new QueryCommand({
        TableName: this.#db.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': session, ':prefix': sortKeys.draftPrefix() },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    const last = Items?.[0];
    if (last === undefined) return [];
    const { step } = draftOf(last);
    const items = await queryItems(this.#db.client, this.#db.name, session, {
      prefix: sortKeys.draftPrefix(step),
    });
    return items.map(draftOf);
  }

  async after(session: string, position?: DraftPosition): Promise<StepDraft[]> {
    const from =
      position === undefined ? sortKeys.draftPrefix() : sortKeys.draft(position.step, position.part);
    const items = await queryItems(this.#db.client, this.#db.name, session, { from, to: LAST_DRAFT_KEY });
    return items.filter((item) => item.sk !== from).map(draftOf);
  }
}

function draftOf(item: Record<string, unknown>): StepDraft {
  const [, step, part] = String(item.sk).split('#');
  return {
    session: String(item.pk),
    step: Number(step),
    part: Number(part),
    afterSeq: Number(item.afterSeq),
    text: String(item.text),
  };
}
