import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repositoryRoot, STEP_BUNDLING } from '@agentstep/infra';
import { build } from 'esbuild';

const KiB = 1024;
const MiB = 1024 * KiB;
const RUNS = 5;
/** The functions that take model steps, so carry a model provider and the tool descriptions. */
const MODEL_STEP_FUNCTIONS = new Set(['model-step', 'advance-turn']);
/** Dummy values for what the functions' `index.ts` parse at module scope. */
const DUMMY_ENV = {
  AGENTSTEP_TABLE: 'bench-events',
  AGENTSTEP_TOOLS_FUNCTION: 'bench-tools',
  AGENTSTEP_MODEL: 'scripted',
  AGENTSTEP_MODEL_SCRIPT: '["Done."]',
  AWS_REGION: 'us-east-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};
/** Times `import()` of the modules named in argv[1] (a JSON array) in a fresh process; prints milliseconds. */
const IMPORT_TIMER =
  'const start = performance.now(); for (const name of JSON.parse(process.argv[1])) await import(name); console.log(performance.now() - start);';

/** The folders under `functions/` that hold a Lambda entry point. */
function functionNames(): string[] {
  const root = join(repositoryRoot, 'functions');
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}

/** A function's bundle and the AWS SDK modules it leaves to the Lambda runtime. */
interface Bundle {
  code: Uint8Array;
  sdkImports: string[];
}

/** One function's bundle, built with the settings CDK deploys with (minus the source map). */
async function bundle(name: string): Promise<Bundle> {
  const result = await build({
    entryPoints: [join(repositoryRoot, 'functions', name, 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: STEP_BUNDLING.target ?? 'node22',
    minify: STEP_BUNDLING.minify ?? true,
    external: STEP_BUNDLING.externalModules ?? [],
    banner: { js: STEP_BUNDLING.banner ?? '' },
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote no bundle for functions/${name}.`);
  const imports = Object.values(result.metafile.outputs).flatMap((file) => file.imports);
  const sdkImports = imports.filter((entry) => entry.external && entry.path.startsWith('@aws-sdk/'));
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

/** One function's line: PASS or MISS, size, import time and the AWS SDK's share of it, target. */
function verdict(name: string, bytes: number, ms: number, sdkMs: number): string {
  const modelStep = MODEL_STEP_FUNCTIONS.has(name);
  const pass = modelStep ? bytes <= MiB : bytes <= 250 * KiB && ms <= 60;
  const target = modelStep ? '<= 1 MiB' : '<= 250 KiB, <= 60 ms';
  const size = `${(bytes / KiB).toFixed(0).padStart(5)} KiB`;
  const time = `${ms.toFixed(0).padStart(4)} ms import (AWS SDK alone ${sdkMs.toFixed(0).padStart(3)} ms)`;
  return `${pass ? 'PASS' : 'MISS'}  ${name.padEnd(22)}${size}  ${time}  target ${target}`;
}

const folder = lambdaLikeFolder();
try {
  console.log(
    `\nLambda bundles (minified, AWS SDK external, as deployed; import: median of ${RUNS} fresh node processes)`,
  );
  for (const name of functionNames()) {
    const { code, sdkImports } = await bundle(name);
    const file = join(folder, `${name}.mjs`);
    writeFileSync(file, code);
    const ms = importMs(folder, [pathToFileURL(file).href]);
    console.log(verdict(name, code.length, ms, importMs(folder, sdkImports)));
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
