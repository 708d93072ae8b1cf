import * as z from 'zod';

const wholeNumber = z.number().int().min(1);
const variablesSchema = z.record(z.string(), z.string());
const fieldNamesSchema = z.array(z.string());

/** A goal inside a loop names both its loop and its iteration (E8), or neither. */
function loopAndIterationTogether(value: { loop?: string | undefined; iteration?: number | undefined }) {
  return (value.loop === undefined) === (value.iteration === undefined);
}
const LOOP_AND_ITERATION = {
  message: 'loop and iteration go together: a goal that ran inside a loop names both, any other neither',
  path: ['iteration'],
};

/** One completed goal (or one agent's output of it), as the event log recorded it. */
export const priorCompletionSchema = z
  .strictObject({
    id: z.string(),
    output: z.string(),
    agent: z.string().optional(),
    loop: z.string().optional(),
    iteration: wholeNumber.optional(),
    fields: variablesSchema.optional(),
  })
  .refine(loopAndIterationTogether, LOOP_AND_ITERATION);

/** One completed goal (or one agent's output of it), as the event log recorded it. */
export type PriorCompletion = z.infer<typeof priorCompletionSchema>;

/** One completed iteration of a CONVERGE goal (E6). */
export const convergenceIterationSchema = z.strictObject({ n: wholeNumber, output: z.string() });

/** One completed iteration of a CONVERGE goal (E6). */
export type ConvergenceIteration = z.infer<typeof convergenceIterationSchema>;

/** The goal a goal document asks the model to do now. */
export const currentGoalSchema = z
  .strictObject({
    id: z.string(),
    description: z.string(),
    outputs: fieldNamesSchema.optional(),
    loop: z.string().optional(),
    iteration: wholeNumber.optional(),
  })
  .refine(loopAndIterationTogether, LOOP_AND_ITERATION);

/** The goal a goal document asks the model to do now. */
export type CurrentGoal = z.infer<typeof currentGoalSchema>;

/** What a task document (E7) gives a USING agent or a dynamic sub-agent. */
export const taskAssignmentSchema = z.strictObject({
  role: z.string(),
  parent_goal: z.string(),
  task: z.string(),
  outputs: fieldNamesSchema.optional(),
  /** true for a USING agent (prior goals and an `<objective>`), false for a dynamic sub-agent. */
  include_prior: z.boolean(),
  /** Whether `$name` in the task text is interpolated (a USING agent's goal text is). */
  interpolate: z.boolean(),
});

/** What a task document (E7) gives a USING agent or a dynamic sub-agent. */
export type TaskAssignment = z.infer<typeof taskAssignmentSchema>;

/** A supervisor's or a person's correction of the goal's previous attempt. */
export const workflowCorrectionSchema = z.strictObject({
  source: z.enum(['supervisor', 'human']),
  text: z.string(),
});

/** A supervisor's or a person's correction of the goal's previous attempt. */
export type WorkflowCorrection = z.infer<typeof workflowCorrectionSchema>;

/**
 * The description `renderContext` renders: a goal document (`render: "goal"`, needs `current`) or
 * a task document (`render: "task"`, needs `task`). `prior` lists completions oldest first and may
 * name a goal more than once; `converge` is present exactly when the current goal is a CONVERGE goal.
 */
export const renderContextInputSchema = z
  .strictObject({
    render: z.enum(['goal', 'task']),
    workflow: z.strictObject({
      name: z.string(),
      /** The Agentfile's path: informational, never rendered. */
      agentfile: z.string().optional(),
    }),
    inputs: variablesSchema.optional(),
    prior: z.array(priorCompletionSchema).optional(),
    converge: z.strictObject({ history: z.array(convergenceIterationSchema) }).optional(),
    current: currentGoalSchema.optional(),
    task: taskAssignmentSchema.optional(),
    correction: workflowCorrectionSchema.optional(),
  })
  .superRefine((input, context) => {
    const needed = input.render === 'goal' ? 'current' : 'task';
    if (input[needed] !== undefined) return;
    const what = needed === 'current' ? 'the goal to run now' : 'the task to give the agent';
    context.addIssue({
      code: 'custom',
      path: [needed],
      message: `render "${input.render}" needs "${needed}" (${what}), and it is missing`,
    });
  });

/** The description `renderContext` renders, as {@link renderContextInputSchema} accepts it. */
export type RenderContextInput = z.infer<typeof renderContextInputSchema>;
