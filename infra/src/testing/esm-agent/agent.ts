import { readFile } from 'node:fs/promises';
import { defineAgent } from '@agentstep/runtime';

/**
 * A fixture agent loaded as ESM only: top-level await, and a prompt read beside it through
 * `import.meta.url`, repeated past Lambda's 4 KB of environment (the functions bundled with the
 * file read the instructions there, not from their environment).
 */
const prompt = await readFile(new URL('prompt.txt', import.meta.url), 'utf8');

export default defineAgent({
  name: 'esm',
  instructions: prompt.repeat(50),
  lambdaTools: [
    {
      name: 'lookup',
      description: 'Looks an order up.',
      parameters: { type: 'object', properties: { id: { type: 'string' } } },
      functionName: 'order-lookup',
    },
    {
      name: 'refund',
      description: 'Refunds an order.',
      parameters: { type: 'object', properties: { id: { type: 'string' } } },
      functionName: 'arn:aws:lambda:eu-west-1:210987654321:function:refunds:live',
    },
  ],
});
