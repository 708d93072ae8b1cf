import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';

const REVIEW = `NAME review
AGENT judge "You judge." REQUIRES "smart"
GOAL verdict "Judge it." USING judge
RUN r USING verdict
`;

describe('agentstep workflow run', () => {
  it('refuses with exit 2, before anything runs, a workflow whose agent REQUIRES a profile not configured', async () => {
    const io = memoryIo({ files: { Agentfile: REVIEW } });
    const args = ['workflow', 'run', 'Agentfile', '--model-profile', 'fast=scripted', '--store', 'memory'];
    expect(await main(args, io)).toBe(2);
    expect(io.err.join('')).toBe(
      'agentstep workflow: Workflow review REQUIRES model profile "smart" (agent judge), which the command line does not configure: add --model-profile smart=MODEL (MODEL as --model names one).\nRun "agentstep --help" for usage.\n',
    );
    expect(io.out).toEqual([]);
  });
});
