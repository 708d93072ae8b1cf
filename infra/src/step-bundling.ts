import type { BuildOptions } from 'esbuild';

/**
 * How every AgentStep Lambda is bundled by esbuild, in-process (never Docker): ESM for Node.js 22,
 * minified with source maps, `require` defined for CommonJS dependencies. The AWS SDK is bundled
 * from its ES modules (`module` before `main`), so each function carries only the clients and
 * commands it sends, tree-shaken: it loads in about half the time the runtime's whole clients take
 * (decision 0034). Exported so the benchmark measures exactly what deploys.
 */
export const STEP_BUNDLING = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: true,
  mainFields: ['module', 'main'],
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
} as const satisfies BuildOptions;
