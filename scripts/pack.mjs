#!/usr/bin/env node
/**
 * `npm run pack -- OUTDIR`: builds every publishable package of the workspace and writes what
 * `pnpm publish` would upload, one `.tgz` per package (`workspace:` ranges replaced by versions,
 * `publishConfig` applied), into OUTDIR; prints their paths. Work inside the repository never needs
 * it: the packages run from their TypeScript sources there.
 *
 * The build: `tsc -b` writes each package's declarations into its `outDir`; esbuild transpiles every
 * source that is not a test next to them; files the sources read at run time (fixtures) are copied
 * beside; the CLI gets its prebuilt bundle (packages/cli/bin/bundle.js). `pnpm pack` adds the
 * repository's LICENSE to each tarball.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const USAGE = 'usage: npm run pack -- OUTDIR (the folder the .tgz files are written to; created if missing)';
/**
 * Never part of a package's build: dependencies, build output, tests, benchmarks, the CDK app
 * (infra/bin) and a package's own manifests (the functions' sources sit at their package's root).
 */
const NOT_SOURCE =
  /^(node_modules|dist|bench|bin|\..*|package\.json|tsconfig\.json|README\.md)$|\.test\.tsx?$/;
/** Set for this script's rerun through pnpm (see rerunThroughPnpm): the absolute OUTDIR. */
const OUTDIR_VARIABLE = 'AGENTSTEP_PACK_OUTDIR';
/** The CLI's bundles a running `agentstep` uses inside the repository: kept while cleaning its dist. */
const LIVE_BUNDLE = /^(bundle|build)-/;

/**
 * A workspace package: its folder, its manifest and, when it publishes a build (its `publishConfig`
 * points its exports at built files), the folder its build goes to (its tsconfig's `outDir`).
 * A package without `publishConfig` (create-agentstep) ships its files as they are.
 */
function packageAt(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (!manifest.publishConfig) return { dir, manifest };
  const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'));
  return { dir, manifest, outDir: join(dir, tsconfig.compilerOptions?.outDir ?? 'dist') };
}

/** The folders pnpm-workspace.yaml lists (`packages/*` expanded), in its order. */
function workspaceDirs() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const list = yaml.match(/^packages:\n((?:[ \t]+-.*\n?)+)/m)?.[1] ?? '';
  const globs = [...list.matchAll(/-\s+['"]?([^'"\s]+)['"]?/g)].map((match) => match[1]);
  return globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [join(root, glob)];
    const parent = join(root, glob.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name));
  });
}

/** Every workspace package that is not private: what `pnpm -r publish` publishes. */
function publishablePackages() {
  return workspaceDirs()
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map(packageAt)
    .filter(({ manifest }) => !manifest.private);
}

/** Runs a command in `cwd` (the repository's root by default); rejects with its output when it fails. */
function run(command, args, cwd = root) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) =>
      reject(new Error(`Could not start ${command}: ${error.message}`, { cause: error })),
    );
    child.on('close', (code) => {
      if (code === 0) resolvePromise(output);
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} (in ${relative(root, cwd) || '.'}) exited ${code}:\n${output}`,
          ),
        );
    });
  });
}

/**
 * Empties a package's build folder, so no file of a removed source ships: everything but the CLI's
 * live bundles, its tsbuildinfo included (so `tsc -b` writes every declaration again).
 */
function cleanOutput({ outDir }) {
  if (!existsSync(outDir)) return;
  for (const name of readdirSync(outDir)) {
    if (!LIVE_BUNDLE.test(name)) rmSync(join(outDir, name), { recursive: true, force: true });
  }
}

/** The files under `dir` (recursively) that belong to the build: no tests, no build output. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCE.test(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : [path];
  });
}

/** Where a package's sources are: `src/`, or the package's folder itself (the functions). */
function sourceRoot({ dir }) {
  return existsSync(join(dir, 'src')) ? join(dir, 'src') : dir;
}

/**
 * Transpiles a package's TypeScript sources next to their declarations (one `.js` per file, import
 * specifiers kept; JSX as its tsconfig says), and copies its other source files, which its code
 * reads at run time (fixtures), beside them.
 */
async function transpile(pkg, build) {
  const files = sourceFiles(sourceRoot(pkg));
  const isTypeScript = (file) => /\.tsx?$/.test(file);
  await build({
    entryPoints: files.filter(isTypeScript),
    outdir: pkg.outDir,
    outbase: pkg.dir,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  for (const file of files.filter((path) => !isTypeScript(path))) {
    cpSync(file, join(pkg.outDir, relative(pkg.dir, file)));
  }
}

/** Builds the CLI's prebuilt bundle into packages/cli/dist/prebuilt (cleaned first with its dist). */
async function buildCliBundle(cli) {
  const { buildBundle } = await import(join(cli.dir, 'bin', 'bundle.js'));
  await buildBundle(join(cli.outDir, 'prebuilt'));
}

/** `pnpm pack`s one package into `outDir`; returns the tarball's path (pnpm prints it last). */
async function pack({ dir }, outDir) {
  const output = await run('pnpm', ['pack', '--pack-destination', outDir], dir);
  const tarball = output.trim().split('\n').at(-1)?.trim() ?? '';
  if (!tarball.endsWith('.tgz'))
    throw new Error(`pnpm pack in ${relative(root, dir)} printed no tarball:\n${output}`);
  return tarball;
}

/** The folder to write into, from the arguments, relative to the folder `npm run` was started in. */
function outDirOf(args) {
  if (args.length !== 1 || args[0].startsWith('-'))
    throw new Error(`Expected one OUTDIR, got ${JSON.stringify(args)}. ${USAGE}`);
  return resolve(process.env.INIT_CWD ?? process.cwd(), args[0]);
}

/**
 * Runs this script again through the project's pinned pnpm (scripts/pnpm.mjs installs it and the
 * dependencies on a fresh machine), which puts `tsc` and `pnpm` on the PATH; OUTDIR goes along
 * resolved, since pnpm runs it from the repository's root. Returns its exit code.
 */
function rerunThroughPnpm(outDir) {
  const script = fileURLToPath(import.meta.url);
  const { status } = spawnSync(
    process.execPath,
    [join(root, 'scripts', 'pnpm.mjs'), 'exec', 'node', script],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, [OUTDIR_VARIABLE]: outDir },
    },
  );
  return status ?? 1;
}

/** Builds every publishable package and packs it into `outDir`. */
async function packAll(outDir) {
  const started = performance.now();
  const packages = publishablePackages();
  const built = packages.filter((pkg) => pkg.outDir);
  for (const pkg of built) cleanOutput(pkg);
  await run('tsc', ['-b', ...built.map(({ dir }) => relative(root, dir))]);
  const { build } = await import('esbuild');
  await Promise.all(built.map((pkg) => transpile(pkg, build)));
  const cli = built.find(({ manifest }) => manifest.name === '@agentstep/cli');
  if (cli) await buildCliBundle(cli);
  mkdirSync(outDir, { recursive: true });
  const tarballs = await Promise.all(packages.map((pkg) => pack(pkg, outDir)));
  for (const tarball of tarballs) console.log(tarball);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.error(`${tarballs.length} packages packed into ${outDir} in ${seconds} s`);
}

try {
  const outDir = process.env[OUTDIR_VARIABLE];
  if (outDir) await packAll(outDir);
  else process.exitCode = rerunThroughPnpm(outDirOf(process.argv.slice(2)));
} catch (error) {
  console.error(`pack: ${error.message}`);
  process.exitCode = 1;
}
