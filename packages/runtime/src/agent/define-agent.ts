import {
  budgetSchema,
  contextSettingsSchema,
  MODEL_PROVIDERS,
  modelChoiceAmong,
  priceTableSchema,
  runawayLimitsSchema,
  SCRIPTED_MODEL,
  turnLimitsSchema,
} from '@agentstep/protocol';
import * as z from 'zod';
import { a2aAgentSpecSchema, a2aToolName } from '../a2a/a2a-agent-spec.js';
import { lambdaToolSpecSchema } from '../lambda/lambda-tool-spec.js';
import { mcpServerNameSchema, mcpServerSpecSchema } from '../mcp/mcp-server-spec.js';
import type { Provider } from '../model/provider.js';
import { providerSchema } from '../model/provider-schema.js';
import type { Tool } from '../tools/define-tool.js';

const AGENT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** What joins an MCP server's name and its tool's (`NAME__TOOL`): no own tool's name may hold it. */
const MCP_NAME_SEPARATOR = '__';
/** The longest wait for a decision Step Functions allows a task (`TimeoutSeconds`). */
const MAX_APPROVAL_TIMEOUT_SECONDS = 99_999_999;

/** A tool made by `defineTool` (checked by shape: it may come from another copy of this package). */
const toolSchema = z.custom<Tool>(
  (value) => {
    const tool = value as Partial<Tool> | null;
    return (
      typeof tool === 'object' &&
      tool !== null &&
      typeof tool.name === 'string' &&
      typeof tool.description === 'string' &&
      typeof tool.handler === 'function' &&
      typeof tool.input?.safeParse === 'function'
    );
  },
  { error: 'must be a tool made by defineTool({ name, description, input, handler })' },
);

/** A model provider; kept as given (a class instance keeps its methods' `this`). */
const providerValueSchema = z.custom<Provider>((value) => providerSchema.safeParse(value).success, {
  error: 'must be a model provider: { name, description, model(modelId, connection) }',
});

/**
 * What an agent is, in one place the CLI and the construct both read: its instructions, model,
 * tools, approval rules and budget. Every field but `name` has a default.
 */
export const agentDefinitionSchema = z
  .object({
    /** Letters, digits, `_` and `-`, from a letter: names the agent in notices and resources. */
    name: z.string().regex(AGENT_NAME, 'must be 1–64 letters, digits, "_" or "-", from a letter'),
    /** The agent's own instructions, placed in the system prompt before the protocol's rules. */
    instructions: z.string().min(1).optional(),
    /** `scripted`, or `<provider>:<model>` of a built-in provider or one of `providers`. @default 'scripted' */
    model: z.string().min(1).default(SCRIPTED_MODEL),
    /** The user's own model providers, registered after the built-in ones. @default none */
    providers: z.array(providerValueSchema).default([]),
    /** Named model profiles, as a workflow agent's `REQUIRES "name"` picks one: name → model. @default none */
    modelProfiles: z.record(z.string().min(1), z.string().min(1)).default({}),
    /**
     * The agent's own tools, each made by `defineTool`; no name holds `__`, which joins an MCP
     * server's name to its tool's. @default none
     */
    tools: z.array(toolSchema).default([]),
    /**
     * Existing Lambda functions offered as tools, by name or ARN: each gets its arguments as its
     * event. Locally they are invoked with your AWS credentials; deployed, the tools function may
     * invoke them. @default none
     */
    lambdaTools: z.array(lambdaToolSpecSchema).default([]),
    /**
     * MCP servers whose tools the agent offers as `NAME__TOOL`, by name: `url` (`https://…`;
     * `http://…` or `stdio:COMMAND ARGS…` locally only), `headers` (a value may be `{secret, prefix?}`: an environment
     * variable locally, a Secrets Manager secret deployed), `oauth` (client credentials: `issuer`,
     * `clientId`, and `clientSecret` or `privateKey` as `{secret}`), `tools` (an allowlist), `approval`
     * (`true` or tool names), `timeoutMs` (60 s). Listed once per turn and logged. @default none
     */
    mcpServers: z.record(mcpServerNameSchema, mcpServerSpecSchema).default({}),
    /**
     * Remote A2A agents the agent calls, each as the tool `NAME__send` (a message in, the remote
     * task's answer out): `name`, `url` (`https://…`, the base its agent card is read under;
     * `http://…` locally only), `headers` (as `mcpServers`'), `description` (for the model),
     * `timeoutMs` (60 s). @default none
     */
    a2aAgents: z.array(a2aAgentSpecSchema).default([]),
    /** Built-in toolsets: `demo`, `workspace`, `http`, `agents`. @default none */
    toolsets: z.array(z.string().min(1)).default([]),
    /** Hosts the `http` toolset's `http_fetch` may fetch, exact or `*.domain`. @default none */
    fetchHosts: z.array(z.string().min(1)).default([]),
    /** Tools whose calls wait for a person's approval (`*`: every tool). @default none */
    approvals: z.array(z.string().min(1)).default([]),
    /** Whole seconds a call waits for a decision. @default 24 hours */
    approvalTimeoutSeconds: z.number().int().min(1).max(MAX_APPROVAL_TIMEOUT_SECONDS).optional(),
    /** What a session may spend before its turns stop with status `limit`. @default no budget */
    budget: budgetSchema.default({}),
    /**
     * Model steps per turn (`maxSteps`) and per execution (`stepsPerExecution`); the runaway guards:
     * calls of one tool with the same arguments (`repeatedCalls`, ends the turn `RepeatedCall`) and
     * model steps in a row without a successful call (`stepsWithoutProgress`, `NoProgress`).
     * @default 50, 25, 3 and 10
     */
    limits: turnLimitsSchema.extend(runawayLimitsSchema.shape).partial().strict().default({}),
    /**
     * How the context stays within the model's window (decision 0035): `windowTokens` (input
     * tokens per request, over the model's known window), `compactAt` (the share of it past which
     * a step compacts first), `strategy` (`summarize` or `drop`) and `summaryModel` (as `model`
     * names one). @default the model's known window, 0.8, `summarize`, the turn's model
     */
    context: contextSettingsSchema.default({}),
    /** Calls of one batch that may run at once. @default 10 */
    maxConcurrency: z.number().int().min(1).max(40).optional(),
    /** Prices (USD per million tokens) by model id, merged over the built-in table. @default built-in */
    prices: priceTableSchema.optional(),
    /**
     * The scripted model's steps when the model is `scripted`: a JSON file, relative to the agent's
     * file (an array of model steps, or an object of them by workflow goal). @default the demo script
     */
    script: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((agent, context) => {
    const choice = modelChoiceAmong([
      ...MODEL_PROVIDERS,
      ...agent.providers.map((provider) => provider.name),
    ]);
    const check = (model: string, path: Array<string | number>) => {
      for (const issue of choice.safeParse(model).error?.issues ?? [])
        context.addIssue({ code: 'custom', path, message: issue.message });
    };
    check(agent.model, ['model']);
    if (agent.context.summaryModel !== undefined)
      check(agent.context.summaryModel, ['context', 'summaryModel']);
    for (const [name, model] of Object.entries(agent.modelProfiles)) check(model, ['modelProfiles', name]);
    for (const field of ['tools', 'lambdaTools'] as const)
      agent[field].forEach(({ name }, index) => {
        if (name.includes(MCP_NAME_SEPARATOR))
          context.addIssue({
            code: 'custom',
            path: [field, index, 'name'],
            message: `"${name}" holds "${MCP_NAME_SEPARATOR}", which is reserved for the tools of MCP servers (NAME__TOOL): rename the tool, e.g. "${name.replace(/_{2,}/g, '_')}"`,
          });
      });
    refuseClashingA2aAgents(agent, context);
  });

/**
 * Each remote agent's name once, and none an MCP server's: its tool `NAME__send` could otherwise
 * be that server's tool `send`.
 */
function refuseClashingA2aAgents(
  agent: { a2aAgents: readonly { name: string }[]; mcpServers: Readonly<Record<string, unknown>> },
  context: z.RefinementCtx,
): void {
  const seen = new Set<string>();
  agent.a2aAgents.forEach(({ name }, index) => {
    const clash = seen.has(name)
      ? `another remote agent is named "${name}": give each its own name`
      : name in agent.mcpServers
        ? `"${name}" names an MCP server too, whose tool "send" would be ${a2aToolName(name)} as well: rename one`
        : undefined;
    seen.add(name);
    if (clash) context.addIssue({ code: 'custom', path: ['a2aAgents', index, 'name'], message: clash });
  });
}

/** What {@link defineAgent} takes. */
export type AgentDefinition = z.input<typeof agentDefinitionSchema>;

/** An agent: its definition checked, every default applied. */
export type Agent = Readonly<z.output<typeof agentDefinitionSchema>>;

/** Thrown by {@link defineAgent} for a definition that cannot run; `issues` says where and why. */
export class InvalidAgentError extends Error {
  override readonly name = 'InvalidAgentError';
  constructor(
    readonly issues: readonly string[],
    options?: ErrorOptions,
  ) {
    super(`Invalid agent definition: ${issues.join('; ')}`, options);
  }
}

/**
 * Defines an agent: the file that is your agent (`agent.ts`, its default export), read by every
 * `agentstep` command run beside it and by the `AgentStep` construct's `agent` prop. Throws an
 * {@link InvalidAgentError} that names each field to fix.
 */
export function defineAgent(definition: AgentDefinition): Agent {
  return checkedAgent(definition);
}

/** The agent a module exported, checked again by shape (it may come from another copy of this package). */
export function checkedAgent(value: unknown): Agent {
  const parsed = agentDefinitionSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`,
    );
    throw new InvalidAgentError(issues, { cause: parsed.error });
  }
  return Object.freeze(parsed.data);
}
