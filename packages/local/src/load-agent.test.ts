import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgent } from './load-agent.js';

/** A temporary folder of this file's own, so nothing else's files are counted. */
let scratch = '';
let previousTmp: string | undefined;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'load-agent-'));
  previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
});

afterAll(() => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  rmSync(scratch, { recursive: true, force: true });
});

describe('loadAgent', { timeout: 60_000 }, () => {
  it('synthesizes into its cache file, two loads at once in one process alike, leaving nothing else behind, and reads the same loop back', async () => {
    const cacheFile = join(scratch, 'cache', 'agent.json');
    // As two servers of one test process starting on a cold cache: each writes the file whole.
    const [synthesized, alongside] = await Promise.all([loadAgent(cacheFile), loadAgent(cacheFile)]);
    expect(alongside).toEqual(synthesized);
    expect(readdirSync(scratch)).toEqual(['cache']);
    expect(readdirSync(join(scratch, 'cache'))).toEqual(['agent.json']);
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).definition).toEqual(synthesized.definition);
    const cached = await loadAgent(cacheFile);
    expect(cached).toEqual(synthesized);
    expect([...cached.functions.values()]).toContain('invoke-tool');
  });
});
