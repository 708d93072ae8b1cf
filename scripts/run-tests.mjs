#!/usr/bin/env node
/**
 * Runs Vitest (extra arguments are passed through) and ends with the plain line
 * `N passed, N failed` that CI reads. Exits non-zero when any test failed or none ran.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const report = '.vitest-report.json';
const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
rmSync(report, { force: true });
const vitest = spawnSync(
  process.execPath,
  [
    vitestBin,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
if (!existsSync(report)) {
  console.log(`Vitest wrote no report (${vitest.error?.message ?? `exit code ${vitest.status}`}).`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numTotalTests } = JSON.parse(
  readFileSync(report, 'utf8'),
);
const skipped = numPendingTests + numTodoTests;
console.log(`${numPassedTests} passed, ${numFailedTests} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(vitest.status !== 0 || numFailedTests > 0 || numTotalTests === 0 ? 1 : 0);
