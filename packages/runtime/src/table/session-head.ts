import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SessionExistsError } from '../errors.js';
import type { ForkOptions, ForkOrigin, SessionHolder } from '../event-log/event-log.js';
import { sortKeys } from './sort-keys.js';

/** The holder a session's head item names, if a turn holds the session. */
export function holderOf(head: Record<string, unknown> | undefined): SessionHolder | undefined {
  if (typeof head?.turn !== 'string') return undefined;
  return {
    turn: head.turn,
    leaseUntil: Math.max(Number(head.leaseUntil ?? 0), Number(head.holdUntil ?? 0)),
    // The flag names the turn it stops, so a later turn's lease needs no clearing of it.
    cancelRequested: head.cancelTurn === head.turn,
  };
}

/** Marks `turn` as asked to stop on the session's head, if it holds the session. */
export async function markCancelRequested(
  client: DynamoDBDocumentClient,
  tableName: string,
  session: string,
  turn: string,
): Promise<boolean> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: session, sk: sortKeys.head },
        UpdateExpression: 'SET cancelTurn = :turn',
        ConditionExpression: 'turn = :turn',
        ExpressionAttributeValues: { ':turn': turn },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The fork origin a session's head item names, if the session is a fork. */
export function forkOriginOf(head: Record<string, unknown> | undefined): ForkOrigin | undefined {
  if (typeof head?.forkOf !== 'string') return undefined;
  return { session: head.forkOf, seq: Number(head.forkAt) };
}

/**
 * Creates a fork's head in one conditional put: no turn, the next seq after the shared prefix, the
 * origin and the request's key. A head that names the same origin is a retry and passes while the
 * fork is untouched (its next seq still the first after the prefix, no turn holding it) or when it
 * was made with the same key; any other head throws SessionExistsError.
 */
export async function putForkHead(
  client: DynamoDBDocumentClient,
  tableName: string,
  session: string,
  origin: ForkOrigin,
  options: ForkOptions = {},
): Promise<void> {
  const { key } = options;
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          pk: session,
          sk: sortKeys.head,
          nextSeq: origin.seq + 1,
          forkOf: origin.session,
          forkAt: origin.seq,
          ...(key === undefined ? {} : { forkKey: key }),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // The old item comes back in DynamoDB's own encoding (the document client does not convert it).
    const old = error.Item;
    const same = old?.forkOf?.S === origin.session && old.forkAt?.N === String(origin.seq);
    const untouched = old?.nextSeq?.N === String(origin.seq + 1) && old.turn === undefined;
    const keyed = key !== undefined && old?.forkKey?.S === key;
    if (!(same && (untouched || keyed))) throw new SessionExistsError(session, { cause: error });
  }
}
