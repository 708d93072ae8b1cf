import { defineAgent, defineTool } from '@agentstep/runtime';
import * as z from 'zod';

/** Your own tool: the model calls it with `{ text }` and reads `{ words }` back. */
export const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words of a text (runs of characters between spaces).',
  input: z.object({ text: z.string().describe('the text whose words to count') }),
  handler: ({ text }) => ({ words: text.split(/\s+/).filter((word) => word.length > 0).length }),
});

/**
 * Your agent: `npm start` (`agentstep run`) reads it from this file, `npm test` tests it, and
 * `npx cdk deploy` deploys it (bin/app.ts), your tools bundled into its tools Lambda.
 */
export default defineAgent({
  name: '{{agentName}}',
  instructions:
    'You count words. Call word_count with the text the user gives you, then say how many words it has.',
  tools: [wordCount],
  // The model is `scripted` until you choose one (`model: 'bedrock:…'`, or `npm start -- --model …`):
  // it plays these steps, so the agent runs with no model provider and no account.
  script: './script.json',
});
