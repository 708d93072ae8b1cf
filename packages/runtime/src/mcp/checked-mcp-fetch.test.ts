import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { checkedMcpFetch, unreadableAnswerOf } from './checked-mcp-fetch.js';

const CALL = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo' } });
const ANSWER = JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: [] } });
const PROGRESS = JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 3, progress: 1 },
});
const MALFORMED = standIn('malformed', 'The server answered with something that is not a JSON-RPC message.');
const LOST = standIn('lost', 'The answer was cut off before it came whole.');

function standIn(why: string, message: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 3,
    error: { code: -32603, message, data: { agentstepUnreadableAnswer: why } },
  });
}

/** What the checked fetch passes on of a response of `type` whose body comes in `chunks` (then breaks, with `broken`). */
async function passed(
  chunks: string[],
  { type = 'text/event-stream', body = CALL, broken = false } = {},
): Promise<string> {
  const fetch = checkedMcpFetch(async () => {
    const encoder = new TextEncoder();
    let next = 0;
    // A chunk a read, as a socket gives them: a break after the last comes after every chunk was read.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
        else if (broken) controller.error(new TypeError('terminated'));
        else controller.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': type } });
  });
  return (await fetch('http://mcp.test/mcp', { method: 'POST', body })).text();
}

describe('checkedMcpFetch', () => {
  it.each([
    [
      'an answer, split anywhere',
      ['event: mess', `age\r`, `\ndata: ${ANSWER.slice(0, 9)}`, `${ANSWER.slice(9)}\r\n\r\n`],
      `event: message\ndata: ${ANSWER}\n\n`,
    ],
    [
      'a progress notification, then the answer',
      [`data: ${PROGRESS}\n\n: a comment\n\ndata: ${ANSWER}\n\n`],
      `data: ${PROGRESS}\n\n: a comment\n\ndata: ${ANSWER}\n\n`,
    ],
    ['a frame that is not JSON', ['id: 7\ndata: {"jsonrpc":\n\n'], `id: 7\ndata: ${MALFORMED}\n\n`],
    [
      'a result that is not JSON-RPC',
      [`data: ${JSON.stringify({ jsonrpc: '2.0', id: 3, result: 'done' })}\n\n`],
      `data: ${MALFORMED}\n\n`,
    ],
    ['no answer before the end', [`data: ${PROGRESS}\n\n`], `data: ${PROGRESS}\n\ndata: ${LOST}\n\n`],
    ['no answer before the end, resumable', [`id: 1\ndata: ${PROGRESS}\n\n`], `id: 1\ndata: ${PROGRESS}\n\n`],
    ['another event type', ['event: ping\ndata: {\n\n'], `event: ping\ndata: {\n\ndata: ${LOST}\n\n`],
  ])('passes on %s as the SDK can pin it on its request', async (_, chunks, expected) => {
    expect(await passed(chunks)).toBe(expected);
  });

  it('ends a stream that breaks before its answer with the stand-in of a lost answer', async () => {
    expect(await passed([`data: ${PROGRESS}\n\n`], { broken: true })).toBe(
      `data: ${PROGRESS}\n\ndata: ${LOST}\n\n`,
    );
  });

  it('passes a JSON answer as it came, and stands in for one that is not JSON-RPC', async () => {
    const type = 'application/json';
    expect(await passed([ANSWER], { type })).toBe(ANSWER);
    expect(await passed(['{"jsonrpc":"2.0","id":3,"result":7}'], { type })).toBe(MALFORMED);
    expect(await passed(['<html>'], { type })).toBe(MALFORMED);
  });

  it('leaves what answers no request as it came', async () => {
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(await passed(['not json'], { body: notification })).toBe('not json');
  });
});

describe('unreadableAnswerOf', () => {
  it('says why the stand-in could not be read, and nothing of any other error', () => {
    expect(unreadableAnswerOf(new McpError(-32603, 'x', { agentstepUnreadableAnswer: 'lost' }))).toBe('lost');
    expect(unreadableAnswerOf(new McpError(-32603, 'x', { agentstepUnreadableAnswer: 'other' }))).toBe(
      undefined,
    );
    expect(unreadableAnswerOf(new McpError(-32603, 'x'))).toBe(undefined);
    expect(unreadableAnswerOf(new Error('x'))).toBe(undefined);
  });
});
