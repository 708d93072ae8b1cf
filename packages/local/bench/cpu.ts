import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { demoTools, ScriptedModel, submitTurn, systemClock } from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import {
  type BaseCheckpointSaver,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import * as z from 'zod';
import { LocalEngine, loadAgent, type SynthesizedAgent, startDynamoDbLocal } from '../src/index.js';
import { atMost, row } from './row.js';

// Issue 39: the node-side CPU of a durable step, AgentStep's against LangGraph.js with a SQLite
// checkpointer (and an in-memory one), the same loop side by side in one process, interleaved.
// AgentStep's figure counts this process only: the DynamoDB Local JVM is another process (its CPU
// is what AWS would not spend here), while the local engine's Step Functions interpreter, which
// AWS runs for us, is counted. `CPU_PROFILE=<prefix>` also writes a CPU profile of each measured
// AgentStep turn (the figures then include the profiler's cost).

/** The loop both sides run: 20 model steps of 3 echo calls each, then an answer. */
const STEPS = 20;
const CALLS = 3;
/** Measured rounds (each runs every path once, interleaved), after one warm-up round. */
const ROUNDS = 5;
/** Issue 39: AgentStep's node-side CPU per durable step at most this multiple of LangGraph + SqliteSaver's. */
const TARGET_RATIO = 2;
const TABLE = 'cpu-bench';
const AGENTSTEP = 'AgentStep (local engine, DynamoDB Local)';
const SQLITE = 'LangGraph.js + SqliteSaver';
const MEMORY = 'LangGraph.js + MemorySaver';

/** Step `step`'s calls, each one new (a repeated call stops the turn: decision 0030). */
const echoCalls = (step: number) =>
  Array.from({ length: CALLS }, (_, index) => ({ name: 'echo', args: { text: `call ${step}.${index}` } }));

/**
 * Where `CPU_PROFILE` asks for profiles of AgentStep's measured turns (`<prefix>-<round>.cpuprofile`,
 * for Chrome DevTools or `node --cpu-prof`'s readers); unset, nothing is profiled.
 */
const PROFILE_PREFIX = process.env.CPU_PROFILE;

/** CPU time in milliseconds: user, system (the kernel's, the loopback socket's to DynamoDB Local included). */
interface Cpu {
  user: number;
  system: number;
}

/** This process's CPU while `run` runs, profiled into `profile` if given. */
async function cpuOf(run: () => Promise<unknown>, profile?: string): Promise<Cpu> {
  const session = profile === undefined ? undefined : new Session();
  if (session !== undefined) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const start = process.cpuUsage();
  await run();
  const { user, system } = process.cpuUsage(start);
  if (session !== undefined && profile !== undefined) {
    const { profile: taken } = await session.post('Profiler.stop');
    writeFileSync(profile, JSON.stringify(taken));
    session.disconnect();
  }
  return { user: user / 1000, system: system / 1000 };
}

/** AgentStep's durable path: the local engine on DynamoDB Local, a scripted model, the echo tool. */
function agentStepLoop(agent: SynthesizedAgent, stores: ReturnType<typeof dynamoStores>) {
  const script = [
    ...Array.from({ length: STEPS }, (_, step) => `<execute>${JSON.stringify(echoCalls(step))}</execute>`),
    'Done.',
  ];
  return async (session: string) => {
    const engine = new LocalEngine({
      agent,
      deps: { ...stores, model: new ScriptedModel(script), clock: systemClock, tools: demoTools },
    });
    await submitTurn({ session, turn: 't', prompt: 'bench' }, { ...stores, clock: systemClock });
    const { output, stats } = await engine.runTurn({ session, turn: 't', maxSteps: STEPS + 1 });
    if (output.answer !== 'Done.' || stats.modelSteps !== STEPS + 1)
      throw new Error(
        `AgentStep's bench turn ended ${output.status} after ${stats.modelSteps} steps: ${output.message}`,
      );
  };
}

/**
 * The same loop on LangGraph.js: a scripted model node (its calls, then `Done.`), the prebuilt
 * ToolNode running an echo tool, and `checkpointer` saving the state after every super-step.
 */
function langGraphLoop(checkpointer: BaseCheckpointSaver) {
  const echo = tool(async ({ text }) => text, {
    name: 'echo',
    description: 'Returns its text.',
    schema: z.object({ text: z.string() }),
  });
  const model = (state: typeof MessagesAnnotation.State) => {
    const step = state.messages.filter((message) => AIMessage.isInstance(message)).length;
    if (step >= STEPS) return { messages: [new AIMessage('Done.')] };
    const calls = echoCalls(step).map((call, index) => ({ id: `call-${step}-${index}`, ...call }));
    return { messages: [new AIMessage({ content: '', tool_calls: calls })] };
  };
  const route = (state: typeof MessagesAnnotation.State) => {
    const last = state.messages.at(-1);
    return last !== undefined && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0
      ? 'tools'
      : END;
  };
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('model', model)
    .addNode('tools', new ToolNode([echo]))
    .addEdge(START, 'model')
    .addConditionalEdges('model', route, ['tools', END])
    .addEdge('tools', 'model')
    .compile({ checkpointer });
  return async (session: string) => {
    const result = await graph.invoke(
      { messages: [new HumanMessage('bench')] },
      { configurable: { thread_id: session }, recursionLimit: 4 * STEPS },
    );
    if (result.messages.at(-1)?.content !== 'Done.')
      throw new Error('LangGraph’s bench loop did not answer.');
  };
}

/**
 * The SqliteSaver package: not a dependency, since it builds better-sqlite3 from source (a C++
 * toolchain and Node's headers, minutes on a fresh machine), which `npm test` must never need.
 * Install it to compare with it: in a folder of its own (`npm install --nodedir=<node's prefix>
 * @langchain/langgraph-checkpoint-sqlite`, on a machine that can build it) named by
 * `AGENTSTEP_BENCH_SQLITE_FROM`, or as a dev dependency of this package.
 */
const SQLITE_SAVER = '@langchain/langgraph-checkpoint-sqlite';

/** The SqliteSaver package: from the folder `AGENTSTEP_BENCH_SQLITE_FROM` names, else by name from here. */
function importSqliteSaver(): Promise<unknown> {
  const from = process.env.AGENTSTEP_BENCH_SQLITE_FROM;
  if (from === undefined) return import(SQLITE_SAVER);
  return import(pathToFileURL(createRequire(join(from, 'package.json')).resolve(SQLITE_SAVER)).href);
}

/** SqliteSaver on a file (durable, as AgentStep's log is), or why it is missing here. */
async function sqliteSaver(file: string): Promise<BaseCheckpointSaver | string> {
  try {
    const { SqliteSaver } = (await importSqliteSaver()) as {
      SqliteSaver: { fromConnString(file: string): BaseCheckpointSaver };
    };
    return SqliteSaver.fromConnString(file);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const folder = mkdtempSync(join(tmpdir(), 'agentstep-cpu-bench-'));
const agent = await loadAgent();
const local = await startDynamoDbLocal();
try {
  const documents = DynamoDBDocumentClient.from(local.client);
  await ensureEventLogTable(documents, TABLE);
  const sqlite = await sqliteSaver(join(folder, 'checkpoints.sqlite'));
  const paths: Record<string, (session: string) => Promise<void>> = {
    [AGENTSTEP]: agentStepLoop(agent, dynamoStores(TABLE, documents)),
    ...(typeof sqlite === 'string' ? {} : { [SQLITE]: langGraphLoop(sqlite) }),
    [MEMORY]: langGraphLoop(new MemorySaver()),
  };
  const perStep: Record<string, Cpu[]> = Object.fromEntries(Object.keys(paths).map((name) => [name, []]));
  for (let round = -1; round < ROUNDS; round++)
    for (const [index, [name, run]] of Object.entries(paths).entries()) {
      const profiled = PROFILE_PREFIX !== undefined && round >= 0 && name === AGENTSTEP;
      const cpu = await cpuOf(
        () => run(`cpu-${round}-${index}`),
        profiled ? `${PROFILE_PREFIX}-${round}.cpuprofile` : undefined,
      );
      // Round -1 warms the JIT, the connections and the tables up.
      if (round >= 0) perStep[name]?.push({ user: cpu.user / STEPS, system: cpu.system / STEPS });
    }
  console.log(
    `\nNode-side CPU per durable step (${STEPS} steps of ${CALLS} echo calls, scripted model; process.cpuUsage() of this process, so DynamoDB Local's JVM is excluded; median of ${ROUNDS} interleaved rounds)`,
  );
  const total = (name: string) => median((perStep[name] ?? []).map(({ user, system }) => user + system));
  for (const [name, values] of Object.entries(perStep)) {
    const split = `user ${median(values.map(({ user }) => user)).toFixed(2)} + system ${median(values.map(({ system }) => system)).toFixed(2)} ms`;
    console.log(`${row(`${name}: CPU per step`, `${total(name).toFixed(2)} ms`)}  ${split}`);
  }
  const ours = total(AGENTSTEP);
  const memory = total(MEMORY);
  if (typeof sqlite === 'string') {
    console.log(
      `      SqliteSaver could not load (${sqlite}): the ratio is against MemorySaver. To compare with it, on a machine that builds better-sqlite3, install ${SQLITE_SAVER} in a folder and name it in AGENTSTEP_BENCH_SQLITE_FROM`,
    );
    const ratio = ours / memory;
    console.log(
      row(
        'AgentStep / LangGraph + MemorySaver (no SqliteSaver)',
        `${ratio.toFixed(2)}x`,
        atMost(ratio, TARGET_RATIO, 'x'),
      ),
    );
  } else {
    const ratio = ours / total(SQLITE);
    console.log(
      row('AgentStep / LangGraph + SqliteSaver', `${ratio.toFixed(2)}x`, atMost(ratio, TARGET_RATIO, 'x')),
    );
    console.log(row('AgentStep / LangGraph + MemorySaver', `${(ours / memory).toFixed(2)}x`));
  }
} finally {
  await local.stop();
  rmSync(folder, { recursive: true, force: true });
}
