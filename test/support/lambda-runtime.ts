import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { node22 } from './node22.js';

/** What the stand-in runtime answers: the variables an import read, a handler's result, or an error. */
export interface RuntimeAnswer {
  reads?: string[];
  result?: unknown;
  error?: { name: string; message: string; stack?: string };
}

/**
 * Lambda's Node.js 22 runtime, stood in for by `lambda-runtime.mjs` in a child process of the
 * Node.js 22 binary: load a function's bundle under a name with its environment, then invoke it.
 */
export class LambdaRuntime {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, (answer: RuntimeAnswer) => void>();
  /** What to do with each chunk a streaming invocation writes, by invocation. */
  readonly #streaming = new Map<number, (chunk: Buffer) => void>();
  #next = 0;
  /** The child's Node.js version, once it is ready. */
  readonly version: Promise<string>;

  constructor() {
    this.#child = fork(fileURLToPath(new URL('lambda-runtime.mjs', import.meta.url)), [], {
      execPath: node22(),
      execArgv: [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.version = new Promise((settle, fail) => {
      this.#child.once('error', fail);
      this.#child.once('exit', (code, signal) => {
        const exited = `The Node.js 22 runtime exited (${signal ?? code}).`;
        fail(new Error(exited));
        // Whatever it was still answering fails now rather than never.
        for (const answer of this.#waiting.values())
          answer({ error: { name: 'RuntimeExited', message: exited } });
      });
      this.#child.on(
        'message',
        (message: { id?: number; ready?: string; chunk?: string } & RuntimeAnswer) => {
          if (message.ready !== undefined) settle(message.ready);
          else if (message.id === undefined) return;
          else if (message.chunk !== undefined)
            this.#streaming.get(message.id)?.(Buffer.from(message.chunk, 'base64'));
          else this.#waiting.get(message.id)?.(message);
        },
      );
    });
  }

  /** Imports `bundle` as function `name`, with `env` as its whole environment. */
  load(name: string, bundle: string, env: Record<string, string>): Promise<RuntimeAnswer> {
    return this.#ask({ type: 'load', name, bundle, env });
  }

  /** Invokes function `name` with `event`. */
  invoke(name: string, event: unknown): Promise<RuntimeAnswer> {
    return this.#ask({ type: 'invoke', name, event });
  }

  /**
   * Invokes streaming function `name` with `event`, handing on each chunk of its response as the
   * handler writes it; settles as {@link invoke} once the handler has ended.
   */
  stream(name: string, event: unknown, onChunk: (chunk: Buffer) => void): Promise<RuntimeAnswer> {
    return this.#ask({ type: 'invoke', name, event }, onChunk);
  }

  /** Invokes function `name` with `event`: its result, or its error thrown here. */
  async call(name: string, event: unknown): Promise<unknown> {
    const { result, error } = await this.invoke(name, event);
    if (error !== undefined)
      throw Object.assign(new Error(error.message), { name: error.name, stack: error.stack });
    return result;
  }

  /** Stops the runtime's process, and with it every invocation still running. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise((settle) => this.#child.once('exit', settle));
    this.#child.kill();
    await exited;
  }

  async #ask(message: Record<string, unknown>, onChunk?: (chunk: Buffer) => void): Promise<RuntimeAnswer> {
    await this.version;
    const id = this.#next++;
    if (onChunk) this.#streaming.set(id, onChunk);
    return new Promise((settle) => {
      this.#waiting.set(id, (answer) => {
        this.#waiting.delete(id);
        this.#streaming.delete(id);
        settle(answer);
      });
      this.#child.send({ id, ...message });
    });
  }
}
