import {
  buildMessages,
  createParser,
  type ParsedEvent,
  type PersistedEvent,
  parse,
  renderSystemPrompt,
  resultEvent,
  type StoredEvent,
} from '@agentstep/protocol';
import { DEMO_SCRIPT } from '../demo/demo-script.js';
import { demoToolset, runDemoCall } from '../demo/demo-tools.js';
import type { CliIo } from '../io/cli-io.js';
import { splitChunks } from '../io/split-chunks.js';

const DEMO_PROMPT = 'Check three things for me at once.';
const STREAM_CHUNK = 4;

/**
 * `agentstep demo`: the protocol end to end in one process, with a scripted model. The durable
 * Step Functions loop replaces this in-memory walk-through once it lands.
 */
export async function demoCommand(_args: string[], io: CliIo): Promise<number> {
  const log: StoredEvent[] = [];
  const append = (event: Omit<PersistedEvent, 'timestamp'>, batch?: string, position?: number) =>
    log.push({
      session: 'demo',
      seq: log.length,
      ...(batch === undefined ? {} : { batch }),
      ...(position === undefined ? {} : { position }),
      event: { ...event, timestamp: io.now() / 1000 } as PersistedEvent,
    });
  const say = (line = '') => io.stdout(`${line}\n`);
  const prompt = renderSystemPrompt({ tools: demoToolset.descriptions });
  say('AgentStep protocol demo. The model is scripted: no model provider or AWS account is used.');
  say(
    `System prompt: ${prompt.length} characters, tools: ${demoToolset.descriptions.map((tool) => tool.name).join(', ')}`,
  );
  say(`\nuser     ${DEMO_PROMPT}`);
  append({ type: 'user', content: DEMO_PROMPT });
  for (const [step, output] of DEMO_SCRIPT.entries()) {
    const batch = `step-${step + 1}`;
    say(`\n── model step ${step + 1} (streamed in ${STREAM_CHUNK}-character chunks)`);
    const calls = streamStep(output, say);
    for (const event of parse(output)) {
      if (event.type === 'think' || event.type === 'respond') append(event, batch);
      if (event.type === 'call') append(event, batch, event.payload.index);
    }
    if (calls.length === 0) break;
    const started = io.now();
    const outcomes = await Promise.all(
      calls.map(({ name, args }, position) => runDemoCall(name, args, position)),
    );
    const result = resultEvent(outcomes);
    append(result, batch);
    say(`── ${calls.length} tools ran in parallel in ${io.now() - started} ms; results in call order:`);
    for (const outcome of outcomes)
      say(`${outcome.status.padEnd(8)} ${outcome.tool}: ${JSON.stringify(outcome.content)}`);
    say(`result   ${JSON.stringify(result.payload)}`);
  }
  say(`\n── the model's context, rebuilt from ${log.length} logged events:`);
  for (const message of buildMessages(log)) say(`[${message.role}]\n${message.content}\n`);
  say(
    'Next: `pnpm agentstep parse` reads any model output from stdin; `pnpm agentstep --help` lists commands.',
  );
  return 0;
}

/**
 * Streams one step through a token-mode parser and prints its events in order, joining the deltas
 * of each think or prose run into one line; returns the step's calls.
 */
function streamStep(output: string, say: (line: string) => void): Array<{ name: string; args: unknown }> {
  const parser = createParser({ mode: 'token' });
  const calls: Array<{ name: string; args: unknown }> = [];
  let run: { type: 'think' | 'respond'; text: string } | undefined;
  const endRun = () => {
    if (run !== undefined) say(`${run.type.padEnd(8)} ${run.text}`);
    run = undefined;
  };
  const show = (events: readonly ParsedEvent[]) => {
    for (const event of events) {
      if (event.type === 'think' || event.type === 'respond') {
        if (run?.type !== event.type) endRun();
        run ??= { type: event.type, text: '' };
        run.text += event.content;
        continue;
      }
      endRun();
      if (event.type === 'call') calls.push(JSON.parse(event.content));
      say(event.type === 'call' ? `call #${event.payload.index}  ${event.content}` : describe(event));
    }
  };
  for (const chunk of splitChunks(output, STREAM_CHUNK)) show(parser.push(chunk));
  show(parser.end());
  endRun();
  return calls;
}

function describe(event: ParsedEvent): string {
  return event.type === 'error' ? `error    ${event.content}` : event.type;
}
