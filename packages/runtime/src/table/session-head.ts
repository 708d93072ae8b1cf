import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionHolder } from '../event-log/event-log.js';
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
