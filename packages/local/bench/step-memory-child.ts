/**
 * One model step in a process of its own, for `measureStepMemory`: a provider streams BYTES of
 * SHAPE in 64 KiB chunks through `modelStep` on in-memory stores; prints, as one JSON line, what
 * the step did and the process's peak resident memory. Run as
 * `node --expose-gc --import tsx step-memory-child.ts SHAPE BYTES`.
 */
import {
  inMemoryStores,
  type ModelPart,
  type ModelRequest,
  modelStep,
  ProviderModel,
  type RequestEnd,
  startTurn,
  submitTurn,
  systemClock,
} from '@agentstep/runtime';
import { isStepShape, type StepMemory, type StepShape } from './measure-step-memory.js';

const CHUNK_CHARS = 64 * 1024;
/** The size of each call of the `calls` shape: just under the protocol's 1 MiB per call. */
const CALL_CHARS = 1_000_000;

/** The step's text, in chunks: an opener, `bytes` of one-byte characters in the shape, a closer. */
function* stepText(shape: StepShape, bytes: number): Generator<string> {
  const filler = 'x'.repeat(CHUNK_CHARS);
  if (shape === 'think') yield '<think>';
  else if (shape === 'argument') yield '<execute>[{"name":"echo","args":{"text":"';
  else yield '<execute>[';
  if (shape === 'calls') {
    const text = 'x'.repeat(CALL_CHARS - 40);
    for (let sent = 0, first = true; sent + CALL_CHARS <= bytes; sent += CALL_CHARS, first = false) {
      const call = `${first ? '' : ','}{"name":"echo","args":{"text":"${text}"}}`;
      for (let at = 0; at < call.length; at += CHUNK_CHARS) yield call.slice(at, at + CHUNK_CHARS);
    }
  } else {
    for (let sent = 0; sent + CHUNK_CHARS <= bytes; sent += CHUNK_CHARS) yield filler;
  }
  yield shape === 'think' ? '</think>Done.' : shape === 'argument' ? '"}}]</execute>' : ']</execute>';
}

/** A provider whose one request streams the step's text, counting the chunks read and the close. */
class FloodingModel extends ProviderModel {
  readonly reads = { chunksRead: 0, closed: false };

  constructor(
    readonly shape: StepShape,
    readonly bytes: number,
  ) {
    super('bench:flood');
  }

  protected async *request(_request: ModelRequest): AsyncGenerator<ModelPart, RequestEnd> {
    try {
      for (const chunk of stepText(this.shape, this.bytes)) {
        this.reads.chunksRead++;
        yield chunk;
      }
      return { stopped: false };
    } finally {
      this.reads.closed = true;
    }
  }
}

const [shape, bytes] = [process.argv[2], Number(process.argv[3])];
if (!isStepShape(shape) || !Number.isInteger(bytes))
  throw new Error(
    `Give a shape (think, argument, calls) and a size in bytes; received "${process.argv.slice(2).join(' ')}".`,
  );
const model = new FloodingModel(shape, bytes);
const deps = {
  ...inMemoryStores(),
  clock: systemClock,
  model,
  tools: [],
  targetOf: () => 'tools',
};
await submitTurn({ session: 's', turn: 't', prompt: 'Go.' }, deps);
const state = await startTurn({ session: 's', turn: 't', maxSteps: 5, stepsPerExecution: 5 }, deps);
globalThis.gc?.();
const baseRss = process.memoryUsage().rss;
const step = await modelStep(state, deps);
// Peak resident memory of the whole process, in kilobytes: no sampling can miss it.
const maxRss = process.resourceUsage().maxRSS * 1024;
const failure = await deps.outcomes.get({ session: 's', batch: step.batch, position: 0 });
const measured: StepMemory = {
  next: step.next,
  failure: typeof failure?.content === 'string' ? failure.content : null,
  ...model.reads,
  baseRss,
  maxRss,
};
console.log(JSON.stringify(measured));
