import type { RunOptions } from '../local/run-options.js';
import type { LoadedAgentFile } from './load-agent-file.js';

/**
 * The options with the agent file's settings under the flags: a flag given wins (`--model`, or
 * `--script` / `--cassette` without it: the model that plays them; `--tools` replacing the toolsets,
 * `--fetch-hosts`, `--approve`, `--approval-timeout`, `--max-*`, `--max-steps`,
 * `--steps-per-execution`), `--model-profile`, the budget flags and the context flags
 * (`--context-window`, `--compaction`: the file's `compactAt` and `summaryModel` stay) merge over the
 * file's. What no flag sets (instructions, own tools and providers, prices, concurrency, script) is
 * read from `loadedAgent` where it is used.
 */
export function withAgentFile(options: RunOptions, loaded: LoadedAgentFile | undefined): RunOptions {
  if (loaded === undefined) return options;
  const { agent } = loaded;
  const approvalTimeoutSeconds = options.approvalTimeoutSeconds ?? agent.approvalTimeoutSeconds;
  const maxSteps = options.maxSteps ?? agent.limits.maxSteps;
  const stepsPerExecution = options.stepsPerExecution ?? agent.limits.stepsPerExecution;
  return {
    ...options,
    model: options.modelChosen ? options.model : agent.model,
    modelProfiles: { ...agent.modelProfiles, ...options.modelProfiles },
    tools: options.given.tools ? options.tools : [...agent.toolsets],
    allowHosts: options.given.fetchHosts ? options.allowHosts : [...agent.fetchHosts],
    approvals: options.given.approvals ? options.approvals : [...agent.approvals],
    budget: { ...agent.budget, ...options.budget },
    context: { ...agent.context, ...options.context },
    ...(approvalTimeoutSeconds === undefined ? {} : { approvalTimeoutSeconds }),
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(stepsPerExecution === undefined ? {} : { stepsPerExecution }),
    loadedAgent: loaded,
  };
}
