import { createHash } from 'node:crypto';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryItems } from './dynamo-table.js';
import { sortKeys } from './sort-keys.js';

/** Bodies up to this size live inside the event item; larger ones are chunked. */
const INLINE_BODY_BYTES = 32 * 1024;
/** Chunk size: well under DynamoDB's 400 KB item limit, with room for keys. */
const CHUNK_BYTES = 350 * 1024;
const BATCH_WRITE_ITEMS = 25;

/** Where a body too large for one item is stored. */
export interface ChunkedBody {
  hash: string;
  chunks: number;
}

/**
 * Stores a large body as content-addressed binary chunks. Writers that race on the same body write
 * the same bytes to the same keys, so a retry or a lost race can never corrupt stored content.
 */
async function putChunkedBody(
  client: DynamoDBDocumentClient,
  table: string,
  pk: string,
  body: Buffer,
): Promise<ChunkedBody> {
  const hash = createHash('sha256').update(body).digest('hex');
  const items = [];
  for (let offset = 0, index = 0; offset < body.length; offset += CHUNK_BYTES, index++) {
    items.push({ pk, sk: sortKeys.chunk(hash, index), data: body.subarray(offset, offset + CHUNK_BYTES) });
  }
  for (let start = 0; start < items.length; start += BATCH_WRITE_ITEMS) {
    let requests = items.slice(start, start + BATCH_WRITE_ITEMS).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length > 0) {
      const { UnprocessedItems } = await client.send(
        new BatchWriteCommand({ RequestItems: { [table]: requests } }),
      );
      requests = (UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
  return { hash, chunks: items.length };
}

/** Reads a chunked body back whole. */
async function getChunkedBody(
  client: DynamoDBDocumentClient,
  table: string,
  pk: string,
  { hash, chunks }: ChunkedBody,
): Promise<Buffer> {
  const items = await queryItems(client, table, pk, { prefix: sortKeys.chunkPrefix(hash) });
  const parts = items.map((item) => item.data as Uint8Array);
  if (parts.length !== chunks) {
    throw new Error(`Event body ${hash} in session ${pk} has ${parts.length} of its ${chunks} chunks.`);
  }
  return Buffer.concat(parts);
}

/** How a body is kept on an item: inline text, or a reference to its chunks. */
export type StoredBody = { body: string } | { chunked: ChunkedBody };

/** Keeps `text` inline when it is small, else chunks it; returns the attributes to put on the item. */
export async function storeBody(
  client: DynamoDBDocumentClient,
  table: string,
  pk: string,
  text: string,
): Promise<StoredBody> {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= INLINE_BODY_BYTES) return { body: text };
  return { chunked: await putChunkedBody(client, table, pk, bytes) };
}

/** The text an item stored with {@link storeBody}. */
export async function loadBody(
  client: DynamoDBDocumentClient,
  table: string,
  pk: string,
  item: Record<string, unknown>,
): Promise<string> {
  if (typeof item.body === 'string') return item.body;
  return (await getChunkedBody(client, table, pk, item.chunked as ChunkedBody)).toString('utf8');
}
