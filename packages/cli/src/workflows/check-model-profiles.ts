import type { ModelProfiles, WorkflowSpec } from '@agentstep/protocol';
import { UsageError } from '../usage-error.js';

/**
 * Refuses, before anything runs, a workflow whose agents REQUIRE model profiles the command line
 * does not configure: a UsageError naming each missing profile, the agents that need it, and the
 * flag that configures it.
 */
export function checkModelProfiles(spec: WorkflowSpec, profiles: ModelProfiles): void {
  const missing = new Map<string, string[]>();
  for (const { name, requires } of spec.agents) {
    if (requires === undefined || Object.hasOwn(profiles, requires)) continue;
    missing.set(requires, [...(missing.get(requires) ?? []), name]);
  }
  if (missing.size === 0) return;
  const needs = [...missing].map(([profile, agents]) => `"${profile}" (agent ${agents.join(', ')})`);
  const flags = [...missing.keys()].map((profile) => `--model-profile ${profile}=MODEL`).join(' ');
  throw new UsageError(
    `Workflow ${spec.name} REQUIRES model profile${missing.size === 1 ? '' : 's'} ${needs.join(', ')}, which the command line does not configure: add ${flags} (MODEL as --model names one).`,
  );
}
