import { defineAgent } from '@agentstep/runtime';

/**
 * The agent `agentstep smoke` checks (AgentStepSmokeStack deploys it; `agentstep serve --agent` serves
 * it), played by its script every turn: one call, then a batch of three calls at once whose first,
 * a `sleep`, waits for a person's approval, then the answer. Built-in tools only, and JavaScript, so
 * it loads from node_modules unbuilt and deploys with nothing of its own to bundle.
 */
export default defineAgent({
  name: 'agentstep-smoke',
  instructions: 'The smoke test of an AgentStep deployment: a script plays the model.',
  toolsets: ['demo'],
  approvals: ['sleep'],
  script: './script.json',
});
