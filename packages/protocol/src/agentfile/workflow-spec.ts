import * as z from 'zod';
import { workflowSpecProblems } from './workflow-spec-problems.js';

/** What a name in a workflow is: a letter or `_`, then letters, digits, `_` or `-` (`fix-cycle`). */
export const WORKFLOW_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const identifier = z
  .string()
  .regex(WORKFLOW_IDENTIFIER, 'expected a name: a letter or _, then letters, digits, _ or -');

const supervision = z.enum(['supervised', 'human', 'unsupervised']);

/** A repeat limit: a whole number > 0, or an input or output field holding one (`WITHIN $max`). */
export const withinSchema = z.union([z.number().int().positive(), z.object({ variable: identifier })]);

/** A run parameter (`INPUT topic DEFAULT "x"`); a default is kept as text. */
export const workflowInputSchema = z.object({ name: identifier, default: z.string().optional() });

/** A persona (`AGENT`): its prompt is the system message of every run of it. */
export const workflowAgentSchema = z.object({
  name: identifier,
  prompt: z.string(),
  outputs: z.array(identifier),
  /** `REQUIRES "profile"`: every run of the agent uses that model profile of the configuration. */
  requires: z.string().optional(),
  supervision: supervision.optional(),
});

/** A unit of work (`GOAL`), or one repeated until it converges (`CONVERGE`, which alone has `within`). */
export const workflowGoalSchema = z.object({
  name: identifier,
  kind: z.enum(['goal', 'converge']),
  description: z.string(),
  outputs: z.array(identifier),
  using: z.array(identifier),
  /**
   * A USING goal's agents' outputs are merged by one more model call into the goal's own output
   * (and fields). Set in a spec written as JSON or code: the Agentfile has no keyword for it.
   */
  synthesize: z.boolean().optional(),
  within: withinSchema.optional(),
  supervision: supervision.optional(),
});

/** A step (`RUN`, or the legacy `LOOP`): steps run in order, each runs its goals in list order. */
export const workflowStepSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('run'),
    name: identifier,
    goals: z.array(identifier).min(1),
    supervision: supervision.optional(),
  }),
  z.object({
    kind: z.literal('loop'),
    name: identifier,
    goals: z.array(identifier).min(1),
    within: withinSchema,
  }),
]);

const workflowSpecShape = z.object({
  name: identifier,
  supervision: z.enum(['supervised', 'human']).optional(),
  inputs: z.array(workflowInputSchema),
  agents: z.array(workflowAgentSchema),
  goals: z.array(workflowGoalSchema),
  steps: z.array(workflowStepSchema),
  maxSteps: z.number().int().positive().optional(),
});

/**
 * A workflow, as an Agentfile states it or as code writes it. Parsing also checks every cross
 * reference (USING kinds, one namespace, WITHIN variables, supervision), each at its path.
 */
export const workflowSpecSchema = workflowSpecShape.superRefine((spec, context) => {
  for (const problem of workflowSpecProblems(spec)) {
    context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }
});

/** A checked workflow: what `parseAgentfile`, `defineWorkflow` and `parseWorkflowSpec` return. */
export type WorkflowSpec = z.infer<typeof workflowSpecShape>;
/** One `INPUT` of a {@link WorkflowSpec}. */
export type WorkflowInput = z.infer<typeof workflowInputSchema>;
/** One `AGENT` of a {@link WorkflowSpec}. */
export type WorkflowAgent = z.infer<typeof workflowAgentSchema>;
/** One `GOAL` or `CONVERGE` of a {@link WorkflowSpec}. */
export type WorkflowGoal = z.infer<typeof workflowGoalSchema>;
/** One `RUN` or `LOOP` of a {@link WorkflowSpec}. */
export type WorkflowStep = z.infer<typeof workflowStepSchema>;
/** A `RUN` step. */
export type WorkflowRunStep = Extract<WorkflowStep, { kind: 'run' }>;
/** A `LOOP` step. */
export type WorkflowLoopStep = Extract<WorkflowStep, { kind: 'loop' }>;
/** A `WITHIN` limit: a number, or `{ variable }` naming an input or output field. */
export type WorkflowWithin = z.infer<typeof withinSchema>;
/** A goal's, agent's or step's supervision modifier. */
export type WorkflowSupervision = z.infer<typeof supervision>;
