import { mkdtempSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RecordingServer, startRecordingServer } from '@agentstep/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCliAsync } from './run-cli.js';

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
function completion(text: string): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'local', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const usage = {
    prompt_tokens: 900,
    completion_tokens: 40,
    total_tokens: 940,
    prompt_tokens_details: { cached_tokens: 512 },
  };
  return [
    chunk({ role: 'assistant', content: '' }, null),
    ...pieces(text).map((piece) => chunk({ content: piece }, null)),
    // OpenAI says `stop` for a stop sequence and for the model's own end alike.
    chunk({}, 'stop'),
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'local', choices: [], usage })}\n\n`,
    'data: [DONE]\n\n',
  ].join('');
}

/** What Anthropic's Messages API streams for one message, stop sequence and usage included. */
function message(text: string, stopSequence: string | null): string {
  const event = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const usage = {
    input_tokens: 300,
    output_tokens: 1,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 600,
  };
  return [
    event('message_start', {
      message: {
        id: 'm',
        type: 'message',
        role: 'assistant',
        model: 'claude',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...pieces(text).map((piece) =>
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }),
    ),
    event('content_block_stop', { index: 0 }),
    event('message_delta', {
      delta: { stop_reason: stopSequence ? 'stop_sequence' : 'end_turn', stop_sequence: stopSequence },
      usage: { output_tokens: 40 },
    }),
    event('message_stop', {}),
  ].join('');
}

const reply = (body: string) => (response: ServerResponse) =>
  response.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
let server: RecordingServer;

beforeAll(async () => {
  server = await startRecordingServer(reply('unexpected request'));
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
    server.replies.push(reply(completion(outputs[0] ?? '')), reply(completion(outputs[1] ?? '')));
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
      reply(message(outputs[0] ?? '', '</execute>')),
      reply(message(outputs[1] ?? '', null)),
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
