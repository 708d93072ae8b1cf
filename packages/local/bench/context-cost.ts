import {
  type ContextOptions,
  demoTools,
  inMemoryStores,
  type Model,
  type ModelPart,
  type ModelRequest,
  submitTurn,
  systemClock,
} from '@agentstep/runtime';
import { LocalEngine, loadAgent, type SynthesizedAgent } from '../src/index.js';
import { atMost, row } from './row.js';

/** The session the issue measures: 1,000 model steps, each a call whose result is about 1 KB. */
const STEPS = 1_000;
const RESULT_BYTES = 1_000;
/** The window the compacting run keeps to (a small one, so the session crosses it many times). */
const WINDOW_TOKENS = 32_000;
/** The share of a compacting run's requests that must repeat the previous request's start. */
const TARGET_PREFIX_SHARE = 0.9;

/** What one request sent: its tokens (a quarter of its characters) and how much of it repeated the previous one. */
interface Sent {
  tokens: number;
  /** Characters at its start equal to the previous step request's start (what a prompt cache can reuse). */
  prefixChars: number;
  chars: number;
  purpose: 'step' | 'compaction';
}

/**
 * A model that answers each step with a call of `blob` (other arguments each time, so no runaway
 * guard stops the turn) and the last with an answer, each compaction with a summary, reporting a
 * quarter of the characters it got as its input tokens; it keeps only what each request measured.
 */
class MeasuringModel implements Model {
  readonly id = 'bench:measuring';
  readonly sent: Sent[] = [];
  #previous = '';

  async *stream(request: ModelRequest): AsyncIterable<ModelPart> {
    const text = [
      request.system,
      ...request.messages.map((message) => `${message.role}\n${message.content}`),
    ].join('\n\u0000\n');
    const purpose = request.purpose === 'compaction' ? 'compaction' : 'step';
    const prefixChars = purpose === 'step' ? commonPrefix(text, this.#previous) : 0;
    if (purpose === 'step') this.#previous = text;
    const tokens = Math.ceil(text.length / 4);
    this.sent.push({ tokens, prefixChars, chars: text.length, purpose });
    yield { inputTokens: tokens, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 };
    if (purpose === 'compaction')
      yield 'The agent fetched blobs of about 1 KB for the user, one a step; nothing else happened. '.repeat(
        8,
      );
    else if (request.turnStep >= STEPS - 1) yield 'Done.';
    else yield `<execute>[{"name":"blob","args":{"bytes":${RESULT_BYTES + request.turnStep}}}]</execute>`;
  }
}

function commonPrefix(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** Runs the 1,000-step turn with these context options; what its requests sent. */
async function session(agent: SynthesizedAgent, context: ContextOptions | undefined) {
  const stores = inMemoryStores();
  const model = new MeasuringModel();
  const engine = new LocalEngine({
    agent,
    deps: { ...stores, model, clock: systemClock, tools: demoTools, ...(context ? { context } : {}) },
  });
  await submitTurn(
    { session: 's', turn: 't', prompt: 'Fetch blobs, one a step.' },
    { ...stores, clock: systemClock },
  );
  const started = performance.now();
  const { output } = await engine.runTurn({
    session: 's',
    turn: 't',
    maxSteps: STEPS,
    stepsPerExecution: 100,
  });
  if (output.status !== 'done')
    throw new Error(`the bench turn ended ${output.status}: ${output.message ?? ''}`);
  const compactions = (await stores.log.read('s')).filter(({ event }) => event.type === 'compacted').length;
  return { sent: model.sent, compactions, seconds: (performance.now() - started) / 1000 };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

const agent = await loadAgent();
console.log(
  `Context: ${STEPS} model steps of one call (results of ~${RESULT_BYTES} bytes), tokens = characters / 4`,
);
const whole = await session(agent, undefined);
const compacted = await session(agent, { windowTokens: WINDOW_TOKENS });
for (const [label, run] of [
  ['without compaction', whole],
  [`compacting at 0.8 × ${thousands(WINDOW_TOKENS)}`, compacted],
] as const) {
  const steps = run.sent.filter((sent) => sent.purpose === 'step');
  const summaries = run.sent.filter((sent) => sent.purpose === 'compaction');
  const perStep = sum(run.sent.map((sent) => sent.tokens)) / steps.length;
  const largest = Math.max(...run.sent.map((sent) => sent.tokens));
  const prefix = sum(steps.map((sent) => sent.prefixChars)) / sum(steps.map((sent) => sent.chars));
  console.log(row(`${label}: tokens sent per step (summaries in)`, thousands(perStep)));
  console.log(
    row(
      `${label}: largest request`,
      `${thousands(largest)} tok`,
      run === compacted ? atMost(largest, WINDOW_TOKENS, ' tokens (the window)') : undefined,
    ),
  );
  console.log(
    row(
      `${label}: repeated prefix (cacheable)`,
      `${(prefix * 100).toFixed(1)} %`,
      run === compacted
        ? { met: prefix >= TARGET_PREFIX_SHARE, text: `>= ${TARGET_PREFIX_SHARE * 100} %` }
        : undefined,
    ),
  );
  console.log(
    row(
      `${label}: compactions, summary requests, wall`,
      `${run.compactions}, ${summaries.length}, ${run.seconds.toFixed(1)} s`,
    ),
  );
}
const saved = 1 - sum(compacted.sent.map((sent) => sent.tokens)) / sum(whole.sent.map((sent) => sent.tokens));
console.log(row('compaction: tokens sent, saved over the session', `${(saved * 100).toFixed(1)} %`));
