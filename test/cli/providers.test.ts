import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  anthropicStream,
  openAIStream,
  type RecordingServer,
  sseReply,
  startRecordingServer,
} from '@agentstep/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCliAsync } from '../support/run-cli.js';

/** The parts of a Chat Completions or Messages request these tests read. */
type ProviderRequest = {
  messages: Array<{ role: string; content: string | Array<{ text: string }> }>;
  system: string | Array<{ text: string }>;
  stop?: string[];
  stop_sequences?: string[];
  stream: boolean;
};

const outputs = [
  // The server stops at </execute> (a stop sequence), as a real one does: the closer never arrives.
  '<think>One echo.</think>\n<execute>[{"name": "echo", "args": {"text": "hi from the server"}}]\n',
  'The echo said "hi from the server".',
];
const pieces = (text: string) => text.match(/.{1,7}/gs) ?? [];

/** What an OpenAI-compatible server streams for one completion, usage frame included. */
const completion = (text: string) =>
  openAIStream(pieces(text), {
    usage: { prompt_tokens: 900, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 512 } },
  });

/** What Anthropic's Messages API streams for one message, stop sequence and usage included. */
const message = (text: string, stopSequence: string | null) =>
  anthropicStream(pieces(text), {
    stopSequence,
    usage: {
      input_tokens: 300,
      output_tokens: 40,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 600,
    },
  });

let server: RecordingServer;

beforeAll(async () => {
  server = await startRecordingServer(sseReply('unexpected request'));
});
afterAll(() => server.close());

/** Runs one tool-using turn against the local server and returns what it printed and received. */
async function runAgainstServer(
  model: string,
  baseUrl: string,
  env: Record<string, string>,
  extra: string[] = [],
) {
  const cwd = mkdtempSync(join(tmpdir(), 'agentstep-provider-'));
  const args = [
    'run',
    'Echo something',
    '--model',
    model,
    '--base-url',
    baseUrl,
    '--store',
    'memory',
    '--json',
  ];
  const { status, stdout, stderr } = await runCliAsync([...args, ...extra], cwd, env);
  expect(stderr).not.toContain('Error');
  expect(status).toBe(0);
  const requests = server.bodies.map((body) => JSON.parse(body) as ProviderRequest);
  expect(requests).toHaveLength(2);
  return { lines: jsonLines(stdout), requests };
}

const textOf = (content: string | Array<{ text: string }> | undefined) =>
  typeof content === 'string' ? content : (content ?? []).map((block) => block.text).join('');

describe('agentstep run against a provider’s streaming API on 127.0.0.1', () => {
  it('openai: completes a tool-using run, streaming tokens (--mode token); requests carry the system prompt, the rebuilt messages, the stop sequences and stream: true', async () => {
    server.reset();
    server.replies.push(sseReply(completion(outputs[0] ?? '')), sseReply(completion(outputs[1] ?? '')));
    const { lines, requests } = await runAgainstServer(
      'openai:local-model',
      `${server.url}/v1`,
      { OPENAI_API_KEY: 'test-key' },
      ['--mode', 'token'],
    );
    expect(lines.filter((line) => line.seq !== undefined).map((line) => line.type)).toEqual([
      'user',
      'call',
      'result',
      'turn_end',
    ]);
    const streamed = (type: string) => lines.filter((line) => line.type === type).map((line) => line.content);
    expect(streamed('think').length).toBeGreaterThan(1);
    expect(streamed('think').join('')).toBe('One echo.');
    expect(streamed('respond').join('')).toBe('The echo said "hi from the server".');
    expect(lines.filter((line) => line.type === 'metric').map((line) => [line.step, line.payload])).toEqual([
      [{ input: 900, output: 40 }, expect.objectContaining({ model: 'openai:local-model', cache_read: 512 })],
      [{ input: 900, output: 40 }, expect.objectContaining({ model: 'openai:local-model', cache_read: 512 })],
    ]);
    const [first, second] = requests;
    expect(first?.stream).toBe(true);
    expect(first?.stop).toEqual(['</execute>', '<end>']);
    expect(first?.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('## echo') });
    expect(first?.messages[1]).toEqual({ role: 'user', content: 'Echo something' });
    expect(second?.messages.at(-1)?.content).toContain('"content": "hi from the server"');
    expect(second?.messages.at(-2)?.content).toContain('</execute>');
  }, 120_000);

  it('anthropic: completes a tool-using run; requests carry the system prompt, the rebuilt messages, the stop sequences and stream: true', async () => {
    server.reset();
    server.replies.push(
      sseReply(message(outputs[0] ?? '', '</execute>')),
      sseReply(message(outputs[1] ?? '', null)),
    );
    const { lines, requests } = await runAgainstServer('anthropic:claude-test', server.url, {
      ANTHROPIC_API_KEY: 'test-key',
    });
    expect(lines.map((line) => line.type)).toEqual([
      'user',
      'think',
      'call',
      'metric',
      'result',
      'respond',
      'metric',
      'turn_end',
    ]);
    expect(lines.find((line) => line.type === 'metric')).toMatchObject({
      step: { input: 900, output: 40 },
      payload: { model: 'anthropic:claude-test', cache_read: 600, cache_write: 0 },
    });
    const [first, second] = requests;
    expect(first?.stream).toBe(true);
    expect(first?.stop_sequences).toEqual(['</execute>', '<end>']);
    expect(textOf(first?.system)).toContain('## echo');
    expect(first?.messages[0]).toMatchObject({ role: 'user', content: [{ text: 'Echo something' }] });
    expect(textOf(second?.messages.at(-1)?.content)).toContain('"content": "hi from the server"');
    expect(textOf(second?.messages.at(-2)?.content)).toContain('</execute>');
  }, 120_000);
});
