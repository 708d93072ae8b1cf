import { type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';

/** A server's answer: status, headers and the body (parsed when JSON, undefined when empty). */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * One request on a connection of its own, with exactly these headers (`Host` included, which
 * `fetch` does not let a caller set); `json` is sent as the body.
 */
export function sendRaw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<RawAnswer> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  return new Promise((settle, fail) => {
    const sent = request(url, { method: options.method ?? 'GET', headers, agent: false });
    sent.on('response', (response) => readAnswer(response).then(settle, fail));
    sent.on('error', fail);
    sent.end(body);
  });
}

/** What the server answered an upload, if it did, and how much of the body went out before it ended. */
export interface UploadOutcome {
  answer?: RawAnswer;
  /** The connection's error (the server closed it), when it ended without a whole answer. */
  error?: string;
  /** Body bytes handed to the socket before the upload stopped. */
  sent: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/**
 * POSTs a JSON body of `total` bytes to `url` as `Transfer-Encoding: chunked` (no Content-Length),
 * each 64 KiB chunk made as the socket takes it. The upload stops as soon as the server answers or
 * the connection ends; with `pauseAt`, it sends no more than that many bytes until the server
 * answers (so the server cannot have read more before its answer).
 */
export function chunkedUpload(
  url: string,
  options: { total: number; pauseAt?: number; headers?: Record<string, string> },
): Promise<UploadOutcome> {
  const { total, pauseAt = total } = options;
  return new Promise((settle) => {
    let sent = 0;
    let answered = false;
    let ended = false;
    const end = (outcome: Omit<UploadOutcome, 'sent'>) => {
      if (ended) return;
      ended = true;
      upload.destroy();
      settle({ ...outcome, sent });
    };
    const upload = request(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...options.headers },
    });
    const pump = () => {
      while (!answered && !ended && sent < Math.min(total, pauseAt)) {
        sent += CHUNK.length;
        if (!upload.write(CHUNK)) {
          upload.once('drain', pump);
          return;
        }
      }
      if (!answered && !ended && sent >= total) upload.end();
    };
    upload.on('response', (response) => {
      answered = true;
      readAnswer(response).then(
        (answer) => end({ answer }),
        (error: Error) => end({ error: error.message }),
      );
    });
    upload.on('error', (error) => end({ error: error.message }));
    pump();
  });
}

function readAnswer(response: IncomingMessage): Promise<RawAnswer> {
  return new Promise((settle, fail) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (part: string) => {
      text += part;
    });
    response.on('error', fail);
    response.on('end', () => {
      const json = /^application\/json\b/.test(response.headers['content-type'] ?? '');
      const status = response.statusCode ?? 0;
      try {
        settle({
          status,
          headers: response.headers,
          body: text === '' ? undefined : json ? JSON.parse(text) : text,
        });
      } catch (error) {
        fail(new Error(`The ${status} answer's JSON body does not parse: ${text}`, { cause: error }));
      }
    });
  });
}
