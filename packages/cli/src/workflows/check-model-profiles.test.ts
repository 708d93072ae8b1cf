import { parseAgentfile, type WorkflowSpec } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error.js';
import { checkModelProfiles } from './check-model-profiles.js';

function spec(source: string): WorkflowSpec {
  const parsed = parseAgentfile(source);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.spec;
}

const REVIEW = spec(`
NAME review
AGENT a "You read." REQUIRES "fast"
AGENT b "You judge." REQUIRES "smart"
AGENT c "You also read." REQUIRES "fast"
AGENT d "You write."
GOAL g "Review it." USING a, b, c, d
RUN r USING g
`);

describe('checkModelProfiles', () => {
  it('accepts a workflow whose profiles are all configured', () => {
    expect(() => checkModelProfiles(REVIEW, { fast: 'scripted', smart: 'scripted' })).not.toThrow();
  });

  it('refuses one with a profile missing, naming each, its agents and the flag to add', () => {
    const check = () => checkModelProfiles(REVIEW, { smart: 'scripted' });
    expect(check).toThrow(UsageError);
    expect(check).toThrow(
      'Workflow review REQUIRES model profile "fast" (agent a, c), which the command line does not configure: add --model-profile fast=MODEL (MODEL as --model names one).',
    );
  });

  it('names every missing profile at once', () => {
    expect(() => checkModelProfiles(REVIEW, {})).toThrow(
      'REQUIRES model profiles "fast" (agent a, c), "smart" (agent b), which the command line does not configure: add --model-profile fast=MODEL --model-profile smart=MODEL',
    );
  });
});
