import { defineAgent, defineTool, ScriptedModel } from '@agentstep/runtime';
import * as z from 'zod';

/** A string only this tool's code holds: a bundle that carries the tool carries it. */
export const WORD_COUNT_MARKER = 'counted-by-the-counter-fixture';

/** A string only this provider's code holds: a bundle that carries the provider carries it. */
export const ECHO_PROVIDER_MARKER = 'answered-by-the-echo-fixture';

/** `echo:<model>`: a provider of the agent's own, answering with a fixed script. */
class EchoProvider {
  readonly name = 'echo';
  readonly description = 'Answers "hi" (a test provider)';
  model(modelId: string) {
    return new ScriptedModel(['hi'], ECHO_PROVIDER_MARKER, `echo:${modelId}`);
  }
}

/** A fixture agent setting every field the construct reads, with a tool and a provider of its own. */
export default defineAgent({
  name: 'counter',
  instructions: 'Count the words you are given.',
  model: 'echo:v1',
  providers: [new EchoProvider()],
  modelProfiles: { fast: 'echo:fast' },
  tools: [
    defineTool({
      name: 'word_count',
      description: 'Counts the words in a text.',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => ({ words: text.split(/\s+/).filter(Boolean).length, by: WORD_COUNT_MARKER }),
    }),
  ],
  toolsets: ['http'],
  fetchHosts: ['example.com'],
  approvals: ['word_count'],
  approvalTimeoutSeconds: 600,
  budget: { maxTokens: 1000 },
  limits: { maxSteps: 7, stepsPerExecution: 3, repeatedCalls: 5, stepsWithoutProgress: 6 },
  maxConcurrency: 4,
  context: { windowTokens: 64_000, compactAt: 0.7, summaryModel: 'echo:brief' },
  prices: { 'echo:v1': { input: 1, output: 2 } },
  script: 'script.json',
});
