import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type { Recording } from './replay-server.js';

/** The folder of the recorded provider streams (`src/model/recorded/`, a SOURCES.md in each provider's folder). */
export const RECORDED_STREAMS = new URL('../model/recorded/', import.meta.url);

/** How a provider frames the events of a stream on the wire. */
export type WireFormat = 'openai' | 'anthropic' | 'bedrock';

/**
 * The wire frames of a recorded stream kept as one JSON event per line (the form provider test
 * suites store them in): Chat Completions `data:` lines closed by `[DONE]`, Anthropic's named
 * server-sent events with each line's bytes as the data, or Bedrock's AWS event-stream messages.
 * A `.base64.txt` file already holds event-stream bytes and is returned as one frame.
 */
export function recordedFrames(format: WireFormat, file: URL): Uint8Array[] {
  const text = readFileSync(file, 'utf8');
  if (file.pathname.endsWith('.base64.txt')) return [Buffer.from(text.trim(), 'base64')];
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (format === 'openai') return [...lines, '[DONE]'].map((line) => Buffer.from(`data: ${line}\n\n`));
  if (format === 'anthropic')
    return lines.map((line) => Buffer.from(`event: ${eventType(line)}\ndata: ${line}\n\n`));
  return lines.map((line) => {
    const [type, payload] = Object.entries(JSON.parse(line) as object)[0] ?? [];
    return eventStreamMessage(String(type), JSON.stringify(payload));
  });
}

function eventType(line: string): string {
  return (JSON.parse(line) as { type: string }).type;
}

/**
 * One AWS event-stream message: a prelude (total and header lengths, their CRC-32), string headers
 * (`:message-type`, `:event-type`, `:content-type`), the payload, and the CRC-32 of all before it.
 */
function eventStreamMessage(type: string, payload: string): Uint8Array {
  const headers = Buffer.concat(
    Object.entries({
      ':event-type': type,
      ':content-type': 'application/json',
      ':message-type': 'event',
    }).map(([name, value]) => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(Buffer.byteLength(value));
      return Buffer.concat([
        Buffer.from([name.length]),
        Buffer.from(name),
        Buffer.from([7]),
        length,
        Buffer.from(value),
      ]);
    }),
  );
  const body = Buffer.from(payload);
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(12 + headers.length + body.length + 4, 0);
  prelude.writeUInt32BE(headers.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, headers, body]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(message));
  return Buffer.concat([message, checksum]);
}

/** A recorded error response, and the error the contract names it by. */
export interface RecordedError {
  status: number;
  expected: string;
  recording: Recording;
}

/**
 * Recorded error responses from a JSON file of `{ "<status>": { expected, headers, body } }`, where
 * `expected` is the error name a step that gets the response must fail with.
 */
export function recordedErrors(file: URL): RecordedError[] {
  const responses = JSON.parse(readFileSync(file, 'utf8')) as Record<
    string,
    { expected: string; headers: Record<string, string>; body: object }
  >;
  return Object.entries(responses).map(([code, { expected, headers, body }]) => {
    const status = Number(code);
    return { status, expected, recording: { status, headers, frames: [JSON.stringify(body)] } };
  });
}
