import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STEP_BUNDLING } from '@agentstep/cdk';
import { ENV_NAMES } from '@agentstep/protocol';
import { build, type Metafile } from 'esbuild';
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

/** A function's bundle, the AWS SDK modules it leaves to the Lambda runtime and loads at start, and what it carries. */
interface Bundle {
  code: Uint8Array;
  sdkImports: string[];
  contributors: Contributor[];
  zodLocales: ZodLocales;
}

/** One package's share of a bundle: its minified bytes, from esbuild's metafile. */
interface Contributor {
  name: string;
  bytes: number;
}

/** The package a bundled file belongs to: its npm name, or the workspace folder it sits in. */
function packageOf(path: string): string {
  const dependency = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (dependency?.[1] !== undefined) return dependency[1];
  const workspace = /^(packages\/[^/]+|functions|infra)\//.exec(path);
  return workspace?.[1] ?? path;
}

/** The packages a bundle carries, largest first, from esbuild's metafile of its one output. */
function contributorsOf(metafile: Metafile): Contributor[] {
  const bytes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs))
    for (const [path, input] of Object.entries(output.inputs)) {
      const name = packageOf(path);
      bytes.set(name, (bytes.get(name) ?? 0) + input.bytesInOutput);
    }
  return [...bytes].map(([name, size]) => ({ name, bytes: size })).sort((a, b) => b.bytes - a.bytes);
}

/**
 * zod's entry modules that hold its `z` namespace object, which carries every locale (~350 KiB):
 * our code imports `* as z` (Biome holds it to that) and is tree-shaken; a dependency that imports
 * `{ z }` brings them all.
 */
const WHOLE_ZOD = /node_modules\/zod\/(index|v4\/index|v4\/classic\/external|v3\/external)\.js$/;
/** zod's locales but English, which only a whole import of zod bundles. */
const ZOD_LOCALE = /node_modules\/zod\/v4\/locales\/(?!en\.js$|index\.js$)[^/]+\.js$/;

/** zod's locales in a bundle (bytes), and the dependencies that import zod whole, one of which brings them. */
function zodLocalesOf(metafile: Metafile): ZodLocales {
  let bytes = 0;
  for (const output of Object.values(metafile.outputs))
    for (const [path, input] of Object.entries(output.inputs))
      if (ZOD_LOCALE.test(path)) bytes += input.bytesInOutput;
  const importers = new Set<string>();
  for (const [path, input] of Object.entries(metafile.inputs)) {
    const name = packageOf(path);
    if (
      name !== 'zod' &&
      familyOf(name) !== 'AgentStep' &&
      input.imports.some((entry) => WHOLE_ZOD.test(entry.path))
    )
      importers.add(name);
  }
  return { bytes, importers: [...importers].sort() };
}

/** The zod locales a bundle carries and who may have brought them. */
interface ZodLocales {
  bytes: number;
  importers: string[];
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
    // The metafile's paths then start at the repository: `packages/runtime/src/…`, `functions/…`.
    absWorkingDir: repositoryRoot,
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
  return {
    code: output.contents,
    sdkImports: [...new Set(sdkImports.map((entry) => entry.path))],
    contributors: contributorsOf(result.metafile),
    zodLocales: zodLocalesOf(result.metafile),
  };
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

/** The size a function that takes no model step is held to (issue 39; 100–300 KB is the anchor's). */
const NON_MODEL_KIB = 500;
/** How many of a bundle's largest dependencies (the AWS SDK's packages counted as one) its row names. */
const TOP_CONTRIBUTORS = 5;

/** The family a bundled package is counted in: the AWS SDK's many packages are one dependency. */
function familyOf(name: string): string {
  if (/^@(aws-sdk|smithy|aws)\//.test(name)) return 'AWS SDK';
  if (name.startsWith('@aws-lambda-powertools/')) return 'Powertools';
  if (name.startsWith('@middy/')) return 'middy';
  if (/^(packages\/|functions$|infra$)/.test(name)) return 'AgentStep';
  return name;
}

/**
 * What a bundle carries, largest first: each family's KiB and share of the bundle, with its three
 * largest packages, e.g. `AWS SDK 330 KiB (66%: @smithy/core 131, …); zod 96 KiB (19%)`.
 */
function contributorsText(measured: Measured): string {
  const families = new Map<string, Contributor[]>();
  for (const contributor of measured.contributors) {
    const family = familyOf(contributor.name);
    families.set(family, [...(families.get(family) ?? []), contributor]);
  }
  const total = (members: readonly Contributor[]) => members.reduce((sum, { bytes }) => sum + bytes, 0);
  return [...families]
    .sort((a, b) => total(b[1]) - total(a[1]))
    .slice(0, TOP_CONTRIBUTORS)
    .map(([family, members]) => {
      const share = `${((total(members) / measured.bytes) * 100).toFixed(0)}%`;
      const parts =
        members.length === 1 && members[0]?.name === family
          ? ''
          : `: ${members
              .slice(0, 3)
              .map(({ name, bytes }) => `${name} ${(bytes / KiB).toFixed(0)}`)
              .join(', ')}${members.length > 3 ? ', …' : ''}`;
      return `${family} ${(total(members) / KiB).toFixed(0)} KiB (${share}${parts})`;
    })
    .join('; ');
}

/**
 * One function's rows: its size (at most 500 KiB for a function that takes no model step, issue 39;
 * 4 MiB for the model steps, which carry every provider), what it carries (its largest packages,
 * from esbuild's metafile: what keeps a bundle over its target), its import time as deployed (60 ms,
 * for the others), and, to compare, its import with the AWS SDK left to the runtime (before issue
 * 30) and that SDK alone.
 */
function rows(name: string, deployed: Measured, external: Measured, sdkMs: number): string[] {
  const modelStep = MODEL_STEP_FUNCTIONS.has(name);
  const kib = deployed.bytes / KiB;
  const size = atMost(kib, modelStep ? 4096 : NON_MODEL_KIB, ' KiB');
  return [
    row(`${name}: size`, `${kib.toFixed(0)} KiB`, size),
    `      ${name} carries: ${contributorsText(deployed)}`,
    ...(size.met || deployed.zodLocales.bytes === 0
      ? []
      : [
          `      ${name} carries every zod locale (${(deployed.zodLocales.bytes / KiB).toFixed(0)} KiB): zod imported whole (\`{ z }\`) by ${deployed.zodLocales.importers.join(', ') || 'a dependency'}`,
        ]),
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
  contributors: Contributor[];
  zodLocales: ZodLocales;
}

/** Writes `name`'s bundle (as `sdk` says) into `folder` and times its import. */
async function measure(
  folder: string,
  name: string,
  sdk: 'bundled' | 'external',
): Promise<Measured & { sdkImports: string[] }> {
  const built = await bundle(name, sdk);
  const file = join(folder, `${name}-${sdk}.mjs`);
  writeFileSync(file, built.code);
  return {
    bytes: built.code.length,
    ms: importMs(folder, [pathToFileURL(file).href]),
    sdkImports: built.sdkImports,
    contributors: built.contributors,
    zodLocales: built.zodLocales,
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
