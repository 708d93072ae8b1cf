import type { BuildOptions } from 'esbuild';

/**
 * How every AgentStep Lambda is bundled by esbuild, in-process (never Docker): ESM for Node.js 22,
 * minified with source maps, the AWS SDK left to the runtime, `require` defined for CommonJS
 * dependencies. Exported so the benchmark measures exactly what deploys.
 */
export const STEP_BUNDLING = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: true,
  external: ['@aws-sdk/*'],
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
} as const satisfies BuildOptions;
