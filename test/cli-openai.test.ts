import { mkdtempSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RecordingServer, startRecordingServer } from '@agentstep/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCliAsync } from './run-cli.js';

/** The parts of a Chat Completions request these tests read. */
type OpenAIRequest = { messages: Array<{ role: string; content: string }>; stop: string[]; stream: boolean };

/** What an OpenAI-compatible server streams for one completion. */
function completion(text: string): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'local', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const pieces = text.match(/.{1,7}/gs) ?? [];
  return [
    chunk({ role: 'assistant', content: '' }, null),
    ...pieces.map((piece) => chunk({ content: piece }, null)),
    chunk({}, 'stop'),
    'data: [DONE]\n\n',
  ].join('');
}

const outputs = [
  // The server stops at </execute> (a stop sequence), as a real one does: the closer never arrives.
  '<think>One echo.</think>\n<execute>[{"name": "echo", "args": {"text": "hi from the server"}}]\n',
  'The echo said "hi from the server".',
];
const stream = (text: string) => (response: ServerResponse) =>
  response.writeHead(200, { 'content-type': 'text/event-stream' }).end(completion(text));
let server: RecordingServer;

beforeAll(async () => {
  server = await startRecordingServer(stream('Done.'));
  server.replies.push(...outputs.map(stream));
});
afterAll(() => server.close());

describe('agentstep run --model openai:<model> against an OpenAI-compatible server', () => {
  it('completes a tool-using run; requests carry the system prompt, the rebuilt messages, the stop sequences and stream: true', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-openai-'));
    const { status, stdout, stderr } = await runCliAsync(
      [
        'run',
        'Echo something',
        '--model',
        'openai:local-model',
        '--base-url',
        `${server.url}/v1`,
        '--store',
        'memory',
        '--json',
      ],
      cwd,
      { OPENAI_API_KEY: 'test-key' },
    );
    expect(stderr).not.toContain('Error');
    expect(status).toBe(0);
    expect(jsonLines(stdout).map((line) => line.type)).toEqual([
      'user',
      'think',
      'call',
      'result',
      'respond',
    ]);
    const requests = server.bodies.map((body) => JSON.parse(body) as OpenAIRequest);
    expect(requests).toHaveLength(2);
    const [first, second] = requests;
    expect(first?.stream).toBe(true);
    expect(first?.stop).toEqual(['</execute>', '<end>']);
    expect(first?.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('## echo') });
    expect(first?.messages[1]).toEqual({ role: 'user', content: 'Echo something' });
    expect(second?.messages.at(-1)?.content).toContain('"content": "hi from the server"');
    expect(second?.messages.at(-2)?.content).toContain('</execute>');
  }, 120_000);
});
