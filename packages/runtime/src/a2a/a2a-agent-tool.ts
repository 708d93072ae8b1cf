import * as z from 'zod';
import type { SecretLookup } from '../mcp/resolve-headers.js';
import { defineTool, type Tool } from '../tools/define-tool.js';
import {
  A2A_TIMEOUT_GRACE_MS,
  type A2aAgentSpec,
  a2aToolName,
  DEFAULT_A2A_TIMEOUT_MS,
} from './a2a-agent-spec.js';

const input = z.object({
  message: z.string().min(1).describe('What to ask or tell the remote agent, in plain words.'),
  context: z
    .string()
    .min(1)
    .optional()
    .describe("An earlier answer's context, to go on with that conversation; leave out to start a new one."),
});

/**
 * The tool `NAME__send` of a remote A2A agent: its call sends `message` (in the remote
 * conversation `context`, if given) with the call's idempotency key as the message id, and its
 * output is the remote task's answer with the task's id and context; everything else is a failure
 * that says why (see `sendA2aMessage`). The same tool whatever the remote agent says of itself:
 * the model sees the same tools at every step. The A2A client is loaded on the first call.
 */
export function a2aAgentTool(spec: A2aAgentSpec, { secretOf }: { secretOf: SecretLookup }): Tool {
  const origin = new URL(spec.url).origin;
  const described = spec.description ? `${spec.description} ` : '';
  return defineTool({
    name: a2aToolName(spec.name),
    description: `${described}Sends a message to the remote agent ${spec.name} (A2A, at ${origin}) and returns its answer as { answer, task, context }: pass context again to go on with that conversation.`,
    input,
    timeoutMs: (spec.timeoutMs ?? DEFAULT_A2A_TIMEOUT_MS) + A2A_TIMEOUT_GRACE_MS,
    // A message starts a task, and a remote agent need not know a message id it saw before: the
    // runtime never sends one twice (decision 0031); an AgentStep agent would start nothing twice.
    idempotent: false,
    handler: async (args, { idempotencyKey, signal }) => {
      const { sendA2aMessage } = await import('./send-a2a-message.js');
      return sendA2aMessage(spec, args, { idempotencyKey, signal, secretOf });
    },
  });
}
