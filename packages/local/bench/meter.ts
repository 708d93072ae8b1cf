import type { Model, ModelPart, ModelRequest } from '@agentstep/runtime';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { requestUnits } from './cost-model.js';

/** DynamoDB requests made, response bytes received and request units used so far. */
export interface Counters {
  requests: number;
  bytes: number;
  readUnits: number;
  writeUnits: number;
}

/** Where the loop was when a model step started: the time and the counters. */
export interface Mark extends Counters {
  at: number;
}

/**
 * Counts every request the client sends, the bytes of every response as the wire carries them,
 * and the request units each uses (estimated from the items' sizes, see {@link requestUnits}).
 */
export function meter(client: DynamoDBClient): Counters {
  const counters = { requests: 0, bytes: 0, readUnits: 0, writeUnits: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      counters.requests++;
      const length = (result.response as { headers?: Record<string, string> }).headers?.['content-length'];
      counters.bytes += Number(length ?? 0);
      const units = requestUnits(
        context.commandName ?? '',
        writtenItemBytes(args.input),
        Number(length ?? 0),
      );
      counters.readUnits += units.read;
      counters.writeUnits += units.write;
      return result;
    },
    { step: 'deserialize', name: 'stepCostMeter' },
  );
  return counters;
}

/** The size of each item a write request writes (its JSON, near enough to DynamoDB's measure). */
function writtenItemBytes(input: unknown): number[] {
  const { TransactItems, Item, RequestItems, Key } = input as Record<string, unknown>;
  const size = (value: unknown) => JSON.stringify(value ?? {}).length;
  if (Array.isArray(TransactItems)) return TransactItems.map(size);
  if (RequestItems !== undefined)
    return Object.values(RequestItems as Record<string, unknown[]>)
      .flat()
      .map(size);
  return [size(Item ?? Key)];
}

/** A scripted model that marks the clock and the counters as each step starts. */
export class MarkingModel implements Model {
  readonly id = 'scripted';
  readonly marks: Mark[] = [];

  constructor(
    private readonly inner: Model,
    private readonly counters: Counters,
  ) {}

  stream(request: ModelRequest): AsyncIterable<ModelPart> {
    this.marks.push({ at: performance.now(), ...this.counters });
    return this.inner.stream(request);
  }
}

/** One loop iteration's cost between the starts of two model steps, averaged over `steps` steps. */
export function costBetween(marks: readonly Mark[], first: number, steps: number) {
  const from = marks[first];
  const to = marks[first + steps];
  if (from === undefined || to === undefined)
    throw new Error(`The session ended before step ${first + steps}.`);
  return {
    ms: (to.at - from.at) / steps,
    requests: (to.requests - from.requests) / steps,
    bytes: (to.bytes - from.bytes) / steps,
    readUnits: (to.readUnits - from.readUnits) / steps,
    writeUnits: (to.writeUnits - from.writeUnits) / steps,
  };
}
