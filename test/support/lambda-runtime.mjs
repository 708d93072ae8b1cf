// A stand-in for Lambda's Node.js runtime, run by the Node.js 22 binary (`node22()`) as a child
// process: it imports function bundles as Lambda does (ESM, top-level await, the environment set
// before the import), records which environment variables each import reads, and invokes the
// handlers with the events the parent sends. It provides what the `nodejs22.x` runtime provides a
// handler and no more: the `awslambda` global with `streamifyResponse` and `HttpResponseStream`.
// Messages (IPC): {id, type: 'load', bundle, env, name} and {id, type: 'invoke', name, event};
// each answered {id, reads?, result?, error?}, a streamed response's chunks first sent as they are
// written, each {id, chunk} (base64).
import { AsyncLocalStorage } from 'node:async_hooks';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

/** Loaded handlers and the environment each was loaded with, by name. */
const loaded = new Map();
let requests = 0;

/**
 * Each function's own environment while its code runs, as if in a process of its own: the import
 * and every invocation run in a context holding the function's variables (and the reads to note),
 * and `process.env` answers from the context it is read in, also after an `await`.
 */
const running = new AsyncLocalStorage();
process.env = new Proxy(
  {},
  {
    get(_target, key) {
      const context = running.getStore();
      if (context === undefined || typeof key !== 'string') return undefined;
      context.reads?.add(key);
      return context.env[key];
    },
    has(_target, key) {
      const context = running.getStore();
      if (context === undefined || typeof key !== 'string') return false;
      context.reads?.add(key);
      return key in context.env;
    },
    set(_target, key, value) {
      const context = running.getStore();
      if (context !== undefined && typeof key === 'string') context.env[key] = String(value);
      return true;
    },
    deleteProperty(_target, key) {
      const context = running.getStore();
      if (context !== undefined && typeof key === 'string') delete context.env[key];
      return true;
    },
    ownKeys: () => Reflect.ownKeys(running.getStore()?.env ?? {}),
    getOwnPropertyDescriptor(_target, key) {
      const env = running.getStore()?.env ?? {};
      return key in env
        ? { value: env[key], enumerable: true, configurable: true, writable: true }
        : undefined;
    },
  },
);

/**
 * The runtime's streaming globals: a streamified handler is called with a response stream, and
 * `HttpResponseStream.from` writes the JSON prelude API Gateway reads (status and headers) and
 * eight zero bytes before the body. The stand-in sends each chunk to the parent as it is written,
 * and answers with all of them.
 */
globalThis.awslambda = {
  streamifyResponse: (handler) => {
    const streaming = async (event, context) => {
      const chunks = [];
      const { invocation } = running.getStore();
      const stream = new Writable({
        write(chunk, _encoding, done) {
          chunks.push(Buffer.from(chunk));
          process.send({ id: invocation, chunk: Buffer.from(chunk).toString('base64') });
          done();
        },
      });
      const ended = new Promise((settle) => stream.once('finish', settle));
      await handler(event, stream, context);
      await ended;
      return { streamed: Buffer.concat(chunks).toString('utf8') };
    };
    return streaming;
  },
  HttpResponseStream: {
    from(stream, metadata) {
      stream.write(JSON.stringify(metadata));
      stream.write(new Uint8Array(8));
      return stream;
    },
  },
};

/** The context Lambda passes a handler, as far as handlers read it. */
function contextOf(name) {
  requests += 1;
  return {
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: `request-${requests}`,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'stream',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 60_000,
  };
}

function described(error) {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error) };
}

/** Imports a bundle with `env` as its whole environment, recording every variable it reads. */
async function load({ id, bundle, env, name }) {
  const context = { env: { ...env }, reads: new Set() };
  try {
    const module = await running.run(context, () => import(`${pathToFileURL(bundle).href}?load=${id}`));
    if (typeof module.handler !== 'function') throw new Error(`${bundle} exports no handler function.`);
    loaded.set(name, { handler: module.handler, env: context.env });
    return { reads: [...context.reads].sort() };
  } catch (error) {
    return { reads: [...context.reads].sort(), error: described(error) };
  }
}

/** Invokes a loaded handler with `event`, in its function's environment. */
async function invoke({ id, name, event }) {
  const function_ = loaded.get(name);
  if (function_ === undefined) return { error: { name: 'Error', message: `No function ${name} is loaded.` } };
  try {
    const context = { env: function_.env, invocation: id };
    const result = await running.run(context, () => function_.handler(event, contextOf(name)));
    return { result: result ?? null };
  } catch (error) {
    return { error: described(error) };
  }
}

process.on('message', async (message) => {
  const answer = message.type === 'load' ? await load(message) : await invoke(message);
  try {
    process.send({ id: message.id, ...answer });
  } catch (error) {
    process.send({ id: message.id, error: described(error) });
  }
});
process.send({ ready: process.version });
