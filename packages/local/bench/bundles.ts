import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STEP_BUNDLING } from '@agentstep/cdk';
import { ENV_NAMES } from '@agentstep/protocol';
import { build } from 'esbuild';
import { atMost, row } from './row.js';

/** This repository's root: the bench measures its `functions/`. */
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const KiB = 1024;
const RUNS = 5;
/** The functions that take model steps, so carry a model provider and the tool descriptions. */
const MODEL_STEP_FUNCTIONS = new Set(['model-step', 'advance-turn']);
/**
 * Dummy values for everything the functions' `index.ts` require at module scope (each one's env
 * schema: the table, the model functions' tools function and model, the API's state machines and
 * authorization, the authorizer's issuer and audience), as the construct sets them.
 */
const DUMMY_ENV = {
  [ENV_NAMES.table]: 'bench-events',
  [ENV_NAMES.toolsFunction]: 'bench-tools',
  [ENV_NAMES.model]: 'scripted',
  [ENV_NAMES.modelScript]: '["Done."]',
  [ENV_NAMES.stateMachine]: 'arn:aws:states:us-east-1:123456789012:stateMachine:bench-loop',
  [ENV_NAMES.workflowStateMachine]: 'arn:aws:states:us-east-1:123456789012:stateMachine:bench-workflows',
  [ENV_NAMES.apiAuth]: 'iam',
  [ENV_NAMES.jwtIssuer]: 'https://issuer.example.com/',
  [ENV_NAMES.jwtAudience]: 'agentstep-api',
  AWS_REGION: 'us-east-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};
/**
 * Times `import()` of the modules named in argv[1] (a JSON array) in a fresh process; prints
 * milliseconds. Lambda's streaming runtime provides `awslambda.streamifyResponse`, which the API
 * function calls at module scope: a minimal stand-in is set before the clock starts.
 */
const IMPORT_TIMER = [
  'globalThis.awslambda ??= { streamifyResponse: (handler) => handler };',
  'const start = performance.now();',
  'for (const name of JSON.parse(process.argv[1])) await import(name);',
  'console.log(performance.now() - start);',
].join(' ');

/** The folders under `functions/` that hold a Lambda entry point. */
function functionNames(): string[] {
  const root = join(repositoryRoot, 'functions');
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}

/** A function's bundle and the AWS SDK modules it leaves to the Lambda runtime and loads at start. */
interface Bundle {
  code: Uint8Array;
  sdkImports: string[];
}

/**
 * One function's bundle, built with the settings CDK deploys with (minus the source map), or as it
 * was before issue 30, the AWS SDK left to the runtime (`sdk: 'external'`).
 */
async function bundle(name: string, sdk: 'bundled' | 'external'): Promise<Bundle> {
  const result = await build({
    ...STEP_BUNDLING,
    ...(sdk === 'external' ? { external: ['@aws-sdk/*'], mainFields: ['main', 'module'] } : {}),
    entryPoints: [join(repositoryRoot, 'functions', name, 'index.ts')],
    sourcemap: false,
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote no bundle for functions/${name}.`);
  const imports = Object.values(result.metafile.outputs).flatMap((file) => file.imports);
  // What loads with the function: a dynamic import of an SDK client waits for its first use.
  const sdkImports = imports.filter(
    (entry) => entry.external && entry.path.startsWith('@aws-sdk/') && entry.kind !== 'dynamic-import',
  );
  return { code: output.contents, sdkImports: [...new Set(sdkImports.map((entry) => entry.path))] };
}

/**
 * A folder where the bundles find the AWS SDK as on Lambda, which provides it: a `node_modules/@aws-sdk`
 * linked to the one pnpm hoists for the workspace.
 */
function lambdaLikeFolder(): string {
  const sdk = join(repositoryRoot, 'node_modules', '.pnpm', 'node_modules', '@aws-sdk');
  if (!existsSync(sdk)) throw new Error(`No AWS SDK at ${sdk}: run pnpm install at the repository root.`);
  const folder = mkdtempSync(join(repositoryRoot, 'node_modules', '.bundle-bench-'));
  mkdirSync(join(folder, 'node_modules'));
  symlinkSync(sdk, join(folder, 'node_modules', '@aws-sdk'), 'dir');
  return folder;
}

/** Median wall time of importing `modules` from `folder`, each time in a fresh `node` process. */
function importMs(folder: string, modules: readonly string[]): number {
  const times = Array.from({ length: RUNS }, () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', IMPORT_TIMER, JSON.stringify(modules)], {
        cwd: folder,
        env: { ...process.env, ...DUMMY_ENV },
        encoding: 'utf8',
      }),
    ),
  ).sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)] ?? Number.NaN;
}

/** Import times of AWS SDK module sets already measured: most functions share theirs. */
const sdkTimes = new Map<string, number>();

/** {@link importMs} of a set of AWS SDK modules, measured once per set. */
function sdkImportMs(folder: string, modules: readonly string[]): number {
  const key = JSON.stringify([...modules].sort());
  const ms = sdkTimes.get(key) ?? importMs(folder, modules);
  sdkTimes.set(key, ms);
  return ms;
}

/**
 * One function's rows: its size (at most 4 MiB for the functions that carry model providers, the
 * model steps' and the API's; 2 MiB for the others: with the AWS SDK inside since decision 0034, a
 * bound that catches a dependency bundled by mistake), its import time as deployed (60 ms, for the
 * others), and, to compare, its import with the AWS SDK left to the runtime (before issue 30) and
 * that SDK alone.
 */
function rows(name: string, deployed: Measured, external: Measured, sdkMs: number): string[] {
  const modelStep = MODEL_STEP_FUNCTIONS.has(name);
  const carriesProviders = modelStep || name === 'api';
  const kib = deployed.bytes / KiB;
  return [
    row(`${name}: size`, `${kib.toFixed(0)} KiB`, atMost(kib, carriesProviders ? 4096 : 2048, ' KiB')),
    row(
      `${name}: import`,
      `${deployed.ms.toFixed(0)} ms`,
      modelStep ? undefined : atMost(deployed.ms, 60, ' ms'),
    ),
    row(`${name}: import, AWS SDK external (before)`, `${external.ms.toFixed(0)} ms`),
    row(`${name}: import of that AWS SDK alone`, `${sdkMs.toFixed(0)} ms`),
  ];
}

/** A bundle's size and import time. */
interface Measured {
  bytes: number;
  ms: number;
}

/** Writes `name`'s bundle (as `sdk` says) into `folder` and times its import. */
async function measure(folder: string, name: string, sdk: 'bundled' | 'external') {
  const built = await bundle(name, sdk);
  const file = join(folder, `${name}-${sdk}.mjs`);
  writeFileSync(file, built.code);
  return {
    bytes: built.code.length,
    ms: importMs(folder, [pathToFileURL(file).href]),
    sdkImports: built.sdkImports,
  };
}

const folder = lambdaLikeFolder();
try {
  console.log(
    `\nLambda bundles (minified, AWS SDK bundled and tree-shaken, as deployed; import: median of ${RUNS} fresh node processes)`,
  );
  for (const name of functionNames()) {
    const deployed = await measure(folder, name, 'bundled');
    const external = await measure(folder, name, 'external');
    for (const line of rows(name, deployed, external, sdkImportMs(folder, external.sdkImports)))
      console.log(line);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
