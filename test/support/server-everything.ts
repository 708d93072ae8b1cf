import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

// `@modelcontextprotocol/server-everything`, the MCP project's own test server, run as its own
// process in streamable HTTP mode (it prints where it listens on stderr; it needs its port given).

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

/** A server-everything process in streamable HTTP mode, and what it has printed to stdout. */
export interface Everything {
  child: ChildProcess;
  url: string;
  stdout: () => string;
}

/** Starts server-everything on a free port and resolves once it says it listens. */
export async function startEverything(port?: number): Promise<Everything> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(chosen) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`listening on port ${chosen}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${stderr}`)));
  });
  return { child, url: `http://127.0.0.1:${chosen}/mcp`, stdout: () => stdout };
}

/** A port no one listens on now, for a server that must be told its port. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Stops the server (if it still runs) and waits for its process to end. */
export async function stopEverything(server: Everything | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill();
  await once(server.child, 'exit');
}

/** Resolves once what the server printed satisfies `holds`, checking after each output; fails if it exits first. */
export async function untilOutput(server: Everything, holds: (stdout: string) => boolean): Promise<void> {
  const exited = once(server.child, 'exit').then(() => {
    throw new Error(`server-everything exited before its output said so: ${server.stdout()}`);
  });
  exited.catch(() => {});
  while (!holds(server.stdout()))
    await Promise.race([once(server.child.stdout ?? server.child, 'data'), exited]);
}
