import { WORKFLOW_IDENTIFIER } from '@agentstep/protocol';
import * as z from 'zod';

/** The longest role a sub-agent may be given. */
const MAX_ROLE_LENGTH = 64;

/** One sub-agent as the model asks for it: its role, its task and the fields its answer must give. */
export const subAgentTaskSchema = z.strictObject({
  role: z
    .string()
    .min(1)
    .max(MAX_ROLE_LENGTH)
    .regex(WORKFLOW_IDENTIFIER, 'a role is a name: a letter or _, then letters, digits, _ or -')
    .describe('Who the sub-agent is, such as "quantum-historian": its persona is "You are a ROLE."'),
  task: z
    .string()
    .min(1)
    .describe('Everything the sub-agent needs: it sees only this text, none of this conversation'),
  outputs: z
    .array(z.string().regex(WORKFLOW_IDENTIFIER, 'a field name: a letter or _, then letters, digits, _ or -'))
    .optional()
    .describe('Fields its answer must give as JSON; returned in `fields`'),
});

/** One sub-agent as the model asks for it. */
export type SubAgentTask = z.output<typeof subAgentTaskSchema>;
