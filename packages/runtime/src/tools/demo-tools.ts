import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import { defineTool, type Tool } from './define-tool.js';

/** Largest `blob` the demo tool makes: 64 MiB. */
const MAX_BLOB_BYTES = 64 * 1024 * 1024;

/** Test and demo tools (`--tools demo`): `echo`, `sleep`, `fail` and `blob`. */
export const demoTools: readonly Tool[] = [
  defineTool({
    name: 'echo',
    description: 'Returns its text unchanged.',
    input: z.object({ text: z.string() }),
    idempotent: true,
    handler: ({ text }) => text,
  }),
  defineTool({
    name: 'sleep',
    description: 'Waits ms milliseconds, then returns value.',
    input: z.object({ ms: z.number().int().min(0).max(60_000), value: z.string() }),
    idempotent: true,
    handler: async ({ ms, value }, { signal }) => {
      await sleep(ms, undefined, { signal });
      return value;
    },
  }),
  defineTool({
    name: 'fail',
    description: 'Always fails with the given message.',
    input: z.object({ message: z.string() }),
    idempotent: true,
    handler: ({ message }) => {
      throw new Error(message);
    },
  }),
  defineTool({
    name: 'blob',
    description: 'Returns a string of exactly `bytes` ASCII characters, to test large outputs.',
    input: z.object({ bytes: z.number().int().min(0).max(MAX_BLOB_BYTES) }),
    idempotent: true,
    handler: ({ bytes }) => 'x'.repeat(bytes),
  }),
];
