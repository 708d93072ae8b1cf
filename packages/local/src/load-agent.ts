import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { StepName } from '@agentstep/cdk';
import type { DefinitionProps, SynthesizedAgent } from './synthesize-agent.js';

/**
 * The synthesized loop, from `cacheFile` when it holds one, else synthesized with `props` (loading
 * aws-cdk-lib, ~3–5 s) and written there. Name the file after the sources it came from and the
 * props, so it never goes stale. The file is written whole or not at all, so processes sharing the
 * cache never read half of one.
 */
export async function loadAgent(cacheFile?: string, props: DefinitionProps = {}): Promise<SynthesizedAgent> {
  if (cacheFile !== undefined) {
    const cached = await readFile(cacheFile, 'utf8').catch(() => undefined);
    if (cached !== undefined) {
      const { functions, ...machines } = JSON.parse(cached) as Omit<SynthesizedAgent, 'functions'> & {
        functions: Array<[string, StepName]>;
      };
      return { ...machines, functions: new Map(functions) };
    }
  }
  const { synthesizeAgent } = await import('./synthesize-agent.js');
  const agent = synthesizeAgent(props);
  if (cacheFile !== undefined) {
    await mkdir(dirname(cacheFile), { recursive: true });
    // A name of this write's own: two loads in one process (two servers in a test) write at once.
    const written = `${cacheFile}.${randomUUID()}.tmp`;
    await writeFile(written, JSON.stringify({ ...agent, functions: [...agent.functions] }));
    await rename(written, cacheFile);
  }
  return agent;
}
