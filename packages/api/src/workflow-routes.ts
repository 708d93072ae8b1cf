import { randomUUID } from 'node:crypto';
import {
  type GateDecided,
  gateDecisionBodySchema,
  type WorkflowAccepted,
  workflowStartBodySchema,
} from '@agentstep/protocol';
import {
  decideGate,
  documentSeen,
  GateAnsweredError,
  GateNotFoundError,
  InvalidWorkflowInputError,
  runInputs,
  runLogOf,
  type StartWorkflowInput,
  startWorkflow,
  tenantTag,
  workflowRunSummary,
} from '@agentstep/runtime';
import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { idsFor } from './ids.js';
import { readBody } from './read-body.js';
import { refuseTenantTurn } from './refuse-tenant-turn.js';
import { tenantOf, untagged } from './session-access.js';
import { storedSession } from './tenants.js';
import { addressedRun, existingRun } from './workflow-access.js';
import { workflowOfBody } from './workflow-of-body.js';

/**
 * The workflow routes: `POST /workflows` (start a run from Agentfile text or a spec, with inputs),
 * `GET /workflows/{run}` (status, goal outputs, gates), `GET /workflows/{run}/goals/{goal}/context`
 * (the exact document a goal saw) and `POST /workflows/{run}/gates/{gate}` (answer a human gate).
 * A run's stream is `GET /workflows/{run}/stream` (see the stream route).
 */
export function addWorkflowRoutes(app: Hono, deps: ApiDeps): void {
  app.post('/workflows', async (c) => {
    const body = await readBody(c, workflowStartBodySchema);
    const spec = workflowOfBody(body);
    const tenant = tenantOf(c);
    await refuseTenantTurn(deps, tenant);
    const run = body.run ?? runId(c.req.header('idempotency-key'), tenant);
    const stored = storedSession(tenant, run);
    const inputs = await begin(stored, run, { spec, inputs: body.inputs }, deps);
    await deps.directory.add(tenantTag(tenant), 'workflow', { id: run, createdAt: deps.clock.now() });
    await deps.workflows.start(stored);
    const accepted: WorkflowAccepted = { run, workflow: spec.name, status: 'running', inputs };
    return c.json(accepted, 202);
  });
  app.get('/workflows/:run', async (c) => {
    const run = await existingRun(c, deps);
    const summary = workflowRunSummary(run.log, run.session);
    // An end's message may name a goal session by its stored id.
    const message = summary.message === undefined ? {} : { message: untagged(run)(summary.message) };
    return c.json({ ...summary, ...message });
  });
  app.get('/workflows/:run/goals/:goal/context', async (c) => {
    const { session, log } = await existingRun(c, deps);
    const goal = c.req.param('goal');
    const document = await documentSeen(log, goal, deps.log);
    if (document === undefined)
      throw new ApiError(404, 'GoalNotRun', `Goal ${goal} of workflow run ${session} has not run.`);
    return c.text(document, 200, { 'content-type': 'application/xml; charset=utf-8' });
  });
  app.post('/workflows/:run/gates/:gate', async (c) => {
    const body = await readBody(c, gateDecisionBodySchema);
    const { tenant, session, stored } = await existingRun(c, deps, addressedRun(c));
    const gate = c.req.param('gate');
    try {
      const { decision, text } = body;
      const answer = { run: stored, gate, by: tenant, decision, ...(text === undefined ? {} : { text }) };
      const status = await decideGate(answer, deps);
      const decided: GateDecided = { run: session, gate, status };
      return c.json(decided);
    } catch (error) {
      throw gateRefusal(error, session, gate);
    }
  });
}

/** A new run's id: random, or derived from the request's `Idempotency-Key`. */
function runId(idempotencyKey: string | undefined, tenant: string): string {
  if (idempotencyKey === undefined) return `wf-${randomUUID()}`;
  return idsFor(idempotencyKey, `workflows\n${tenant}`).session().replace(/^s-/, 'wf-');
}

/**
 * Writes the run's `start` record; returns its inputs. A run already started with the same
 * workflow and inputs (a retried request) is answered as it was; a session by that id with
 * anything else in it refuses with 409.
 */
async function begin(
  stored: string,
  run: string,
  given: Pick<StartWorkflowInput, 'spec' | 'inputs'>,
  deps: ApiDeps,
): Promise<Record<string, string>> {
  const inputs = checkedInputs(given);
  const existing = await deps.log.read(stored);
  if (existing.length === 0) return startWorkflow({ run: stored, ...given }, deps);
  const log = runLogOf(stored, existing);
  if (JSON.stringify([log?.spec, log?.inputs]) === JSON.stringify([given.spec, inputs])) return inputs;
  throw new ApiError(
    409,
    'WorkflowRunExists',
    `Workflow run ${run} exists and runs another workflow or other inputs: choose another run id.`,
  );
}

/** The run's inputs with defaults; 400 naming what is undeclared or missing. */
function checkedInputs({ spec, inputs }: Pick<StartWorkflowInput, 'spec' | 'inputs'>) {
  try {
    return runInputs(spec, inputs);
  } catch (error) {
    if (error instanceof InvalidWorkflowInputError)
      throw new ApiError(400, error.name, error.message, [{ path: 'inputs', message: error.message }]);
    throw error;
  }
}

function gateRefusal(error: unknown, run: string, gate: string): unknown {
  if (error instanceof GateNotFoundError)
    return new ApiError(
      404,
      error.name,
      `Workflow run ${run} has no human gate ${gate}: GET /workflows/${run} lists its gates.`,
    );
  if (error instanceof GateAnsweredError) return new ApiError(409, error.name, error.message);
  return error;
}
