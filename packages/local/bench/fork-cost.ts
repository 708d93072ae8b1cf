import type { PersistedEvent } from '@agentstep/protocol';
import { type EventLog, forkSession, type NewEvent } from '@agentstep/runtime';
import { DynamoEventLog, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '../src/index.js';
import { atMost, row } from './row.js';

const TABLE = 'fork-cost';
const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);
/** Events of each measured session: the short and long prefixes. */
const PREFIXES = [20, 2_000];
const TARGET_FORK_MS = 50;

/** Counts the write requests the client sends (every kind of write, one each however many items). */
function writeMeter(client: DynamoDBClient): { writes: number } {
  const counters = { writes: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (WRITE_COMMANDS.has(String(context.commandName))) counters.writes++;
      return next(args);
    },
    { step: 'initialize', name: 'forkWriteMeter' },
  );
  return counters;
}

/** A session of `count` events: turns of a user message, nine calls, their results and an answer. */
async function sessionOf(log: EventLog, name: string, count: number): Promise<string> {
  const session = `${name}-${Date.now()}`;
  const at = Date.now() / 1000;
  const turnEvents = (turn: string): NewEvent[] => [
    { event: { type: 'user', content: `Turn ${turn}`, timestamp: at } },
    ...Array.from({ length: 9 }, (_, n) => ({
      batch: `${turn}.0`,
      position: n,
      event: {
        type: 'call',
        content: `{"name":"echo","args":{"text":"${n}"}}`,
        timestamp: at,
      } as PersistedEvent,
    })),
    {
      batch: `${turn}.0`,
      event: {
        type: 'result',
        content: '[]',
        payload: { tools_executed: 9, success_count: 9, failure_count: 0 },
        timestamp: at,
      },
    },
    { event: { type: 'respond', content: 'Done.', timestamp: at } },
    {
      event: {
        type: 'turn_end',
        content: 'The turn finished.',
        payload: { turn, status: 'done' },
        timestamp: at,
      },
    },
  ];
  for (let index = 0; index * 13 < count; index++) {
    const turn = `t-${index}`;
    const events = turnEvents(turn).slice(0, count - index * 13);
    await log.acquireTurn(session, turn);
    await log.append({ session, turn, key: turn, release: true, events });
  }
  return session;
}

/** Forks a `count`-event session at its last batch's results: the writes the fork made and its time. */
async function measureFork(log: EventLog, meter: { writes: number }, count: number) {
  const from = await sessionOf(log, `parent-${count}`, count);
  const events = await log.read(from);
  const at = events.findLast(({ event }) => event.type === 'result')?.seq ?? 0;
  const writesBefore = meter.writes;
  const started = performance.now();
  await forkSession({ from, at, session: `fork-${from}`, events }, { log });
  const ms = performance.now() - started;
  return { writes: meter.writes - writesBefore, ms, shared: at };
}

const local = await startDynamoDbLocal();
try {
  const meter = writeMeter(local.client);
  const documents = DynamoDBDocumentClient.from(local.client);
  await ensureEventLogTable(documents, TABLE);
  const log = new DynamoEventLog({ tableName: TABLE, client: documents });
  console.log('\nForking a session (DynamoDB Local): the fork shares its parent prefix by reference');
  const measured = [];
  for (const count of PREFIXES) measured.push({ count, ...(await measureFork(log, meter, count)) });
  const [shortest] = measured;
  for (const { count, writes, ms, shared } of measured) {
    const same = {
      met: writes === shortest?.writes,
      text: `= ${shortest?.writes} (the ${shortest?.count}-event prefix's)`,
    };
    console.log(row(`fork writes, ${count}-event session (${shared} shared)`, String(writes), same));
    console.log(
      row(`fork time, ${count}-event session`, `${ms.toFixed(1)} ms`, atMost(ms, TARGET_FORK_MS, ' ms')),
    );
  }
} finally {
  await local.stop();
}
