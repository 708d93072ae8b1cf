import { randomUUID } from 'node:crypto';
import { demoTools, inMemoryStores, ScriptedModel, submitTurn, systemClock } from '@agentstep/runtime';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestAgent } from './load-test-agent.js';
import {
  AGENT_STATE_MACHINE,
  LocalEngine,
  type LocalEngineOptions,
  WORKFLOW_STATE_MACHINE,
} from './local-engine.js';
import type { SynthesizedAgent } from './synthesize-agent.js';
import { definitionValidations } from './validated-state-machine.js';

const START = 'arn:aws:states:::states:startExecution';

/** A one-task machine that starts `target` (by name or ARN) with its own input and ends. */
function starter(
  target: string,
  resource: string,
  extra: Record<string, unknown> = {},
): StateMachineDefinition {
  return {
    StartAt: 'Start',
    States: {
      Start: {
        Type: 'Task',
        Resource: resource,
        Parameters: { StateMachineArn: target, 'Input.$': '$' },
        ...extra,
        End: true,
      },
    },
  } as StateMachineDefinition;
}

const pass = (result: unknown): StateMachineDefinition =>
  ({
    StartAt: 'Done',
    States: { Done: { Type: 'Pass', Result: result, End: true } },
  }) as StateMachineDefinition;

const failing: StateMachineDefinition = {
  StartAt: 'Boom',
  States: { Boom: { Type: 'Fail', Error: 'Boom', Cause: 'the child broke' } },
} as StateMachineDefinition;

/** The error that ended a failed execution: the cause of the engine's `ExecutionError`. */
async function failureOf(run: Promise<unknown>): Promise<Error | undefined> {
  const failure = await run.then(
    () => undefined,
    (error: unknown) => error,
  );
  return (failure as { cause?: Error } | undefined)?.cause;
}

let agent: SynthesizedAgent;
beforeAll(async () => {
  agent = await loadTestAgent();
});

function engineWith(options: Partial<LocalEngineOptions>, script = ['Done.']) {
  const stores = inMemoryStores();
  const engine = new LocalEngine({
    agent,
    deps: { ...stores, model: new ScriptedModel(script), clock: systemClock, tools: demoTools },
    ...options,
  });
  return { engine, stores };
}

describe('LocalEngine start', { timeout: 30_000 }, () => {
  it('validates a definition once per content: a second engine on a copy of the loop validates nothing', () => {
    engineWith({});
    const validated = definitionValidations();
    const copy = structuredClone(agent);
    new LocalEngine({
      agent: copy,
      deps: { ...inMemoryStores(), model: new ScriptedModel([]), clock: systemClock, tools: demoTools },
    });
    expect(definitionValidations()).toBe(validated);
  });

  it('validates a definition it has not seen once, and refuses an invalid one every time', () => {
    const validated = definitionValidations();
    const unseen = pass({ unseen: randomUUID() });
    engineWith({ stateMachines: { Unseen: unseen } });
    engineWith({ stateMachines: { Unseen: structuredClone(unseen) } });
    expect(definitionValidations()).toBe(validated + 1);
    const invalid = {
      StartAt: 'Missing',
      States: { Done: { Type: 'Pass', End: true } },
    } as StateMachineDefinition;
    const hostInvalid = () => engineWith({ stateMachines: { Invalid: invalid } });
    expect(hostInvalid).toThrow('State machine definition is invalid');
    // Refused again: a definition that failed its validation is not remembered as validated.
    expect(hostInvalid).toThrow('State machine definition is invalid');
  });
});

describe('LocalEngine hosting several state machines', { timeout: 30_000 }, () => {
  it('runs the agent loop as a child with startExecution.sync:2 and hands its turn output to the parent', async () => {
    const { engine, stores } = engineWith(
      { stateMachines: { Parent: starter(AGENT_STATE_MACHINE, `${START}.sync:2`) } },
      ['<execute>[{"name": "echo", "args": {"text": "hi"}}]</execute>', 'All done.'],
    );
    await submitTurn({ session: 's', turn: 't', prompt: 'go' }, { ...stores, clock: systemClock });
    const run = await engine.execute('Parent', { session: 's', turn: 't' });
    const result = run.output as {
      Status: string;
      Output: { status: string; session: string };
      ExecutionArn: string;
    };
    expect(result.Status).toBe('SUCCEEDED');
    expect(result.Output).toMatchObject({ status: 'done', session: 's' });
    expect(result.ExecutionArn).toMatch(new RegExp(`:execution:${AGENT_STATE_MACHINE}:`));
    expect(run.stats.executions).toBe(2);
    expect(run.stats.modelSteps).toBe(2);
    const types = (await stores.log.read('s')).map((stored) => stored.event.type);
    expect(types.at(-1)).toBe('turn_end');
  });

  it('fails a .sync task with States.TaskFailed when its child fails, which the parent can catch', async () => {
    const caught = {
      StartAt: 'Start',
      States: {
        Start: {
          Type: 'Task',
          Resource: `${START}.sync:2`,
          Parameters: { StateMachineArn: 'Child', 'Input.$': '$' },
          Catch: [{ ErrorEquals: ['States.TaskFailed'], ResultPath: '$.failure', Next: 'Recovered' }],
          Next: 'Done',
        },
        Done: { Type: 'Pass', End: true },
        Recovered: { Type: 'Pass', End: true },
      },
    } as StateMachineDefinition;
    const { engine } = engineWith({ stateMachines: { Child: failing, Parent: caught } });
    const { output } = await engine.execute('Parent', { asked: 1 });
    const { failure } = output as { failure: { Error: string; Cause: string } };
    expect(failure.Error).toBe('States.TaskFailed');
    expect(JSON.parse(failure.Cause)).toMatchObject({
      Status: 'FAILED',
      Error: 'Boom',
      Cause: 'the child broke',
    });
  });

  it('fails the parent with States.TaskFailed when nothing catches the child failure', async () => {
    const { engine } = engineWith({
      stateMachines: { Child: failing, Parent: starter('Child', `${START}.sync`) },
    });
    expect((await failureOf(engine.execute('Parent', {})))?.name).toBe('States.TaskFailed');
  });

  it('starts an execution without waiting: the task returns its ARN, the child runs on and calls its function', async () => {
    let resolve: (event: unknown) => void = () => {};
    const received = new Promise((settle) => {
      resolve = settle;
    });
    const child: StateMachineDefinition = {
      StartAt: 'Notify',
      States: {
        Notify: {
          Type: 'Task',
          Resource: 'arn:aws:lambda:us-east-1:123456789012:function:notify',
          End: true,
        },
      },
    } as StateMachineDefinition;
    const { engine } = engineWith({
      stateMachines: {
        Child: child,
        Parent: starter('Child', START, {
          Parameters: { StateMachineArn: 'Child', Input: '{"n": 7}', Name: 'seven' },
        }),
      },
      functions: { notify: async (event) => resolve(event) },
    });
    const { output } = await engine.execute('Parent', {});
    expect(output).toMatchObject({
      ExecutionArn: 'arn:aws:states:us-east-1:123456789012:execution:Child:seven',
    });
    expect(await received).toEqual({ n: 7 });
  });

  it('nests executions two levels deep, .sync:2 returning JSON and .sync returning JSON strings', async () => {
    const { engine } = engineWith({
      stateMachines: {
        Leaf: pass({ leaf: true }),
        Middle: starter('arn:aws:states:us-east-1:123456789012:stateMachine:Leaf', `${START}.sync`, {
          ResultSelector: { 'output.$': '$.Output' },
        }),
        Top: starter('Middle', `${START}.sync:2`, { ResultSelector: { 'output.$': '$.Output.output' } }),
      },
    });
    const run = await engine.execute('Top', {});
    expect(run.output).toEqual({ output: '{"leaf":true}' });
    expect(run.stats.executions).toBe(3);
  });

  it('names the hosted machines when asked for one it does not host, in a task or directly', async () => {
    const { engine } = engineWith({ stateMachines: { Parent: starter('Missing', `${START}.sync:2`) } });
    await expect(engine.execute('Nope', {})).rejects.toThrow(
      `The local engine hosts no state machine Nope; it hosts ${AGENT_STATE_MACHINE}, ${agent.workflow.agentName}, ${WORKFLOW_STATE_MACHINE}, Parent.`,
    );
    expect((await failureOf(engine.execute('Parent', {})))?.name).toBe(
      'StepFunctions.StateMachineDoesNotExistException',
    );
  });

  it('refuses a machine whose task calls a Lambda function it has no local handler for', () => {
    const orphan = {
      StartAt: 'Call',
      States: {
        Call: { Type: 'Task', Resource: 'arn:aws:lambda:us-east-1:123456789012:function:nowhere', End: true },
      },
    } as StateMachineDefinition;
    expect(() => engineWith({ stateMachines: { Orphan: orphan } })).toThrow(
      'Task Call calls arn:aws:lambda:us-east-1:123456789012:function:nowhere, which has no local equivalent.',
    );
  });
});

describe('LocalEngine and Step Functions limits', { timeout: 30_000 }, () => {
  it('fails an execution whose state is over 256 KiB with States.DataLimitExceeded, as AWS does', async () => {
    const { engine } = engineWith({ stateMachines: { Big: pass('x'.repeat(300 * 1024)) } });
    expect(await failureOf(engine.execute('Big', {}))).toMatchObject({
      name: 'States.DataLimitExceeded',
      message: expect.stringContaining("over Step Functions' limit of 262144 bytes"),
    });
  });

  it('fails an execution whose history passes 25,000 events with States.Runtime, as AWS does', async () => {
    // Each item: its iteration started and succeeded, and ten Pass states each entered and exited.
    const passes = Array.from({ length: 10 }, (_, index) => [
      `Pass${index}`,
      index === 9 ? { Type: 'Pass', End: true } : { Type: 'Pass', Next: `Pass${index + 1}` },
    ]);
    const many = {
      StartAt: 'Each',
      States: {
        Each: {
          Type: 'Map',
          ItemsPath: '$.items',
          ItemProcessor: { StartAt: 'Pass0', States: Object.fromEntries(passes) },
          End: true,
        },
      },
    } as unknown as StateMachineDefinition;
    const { engine } = engineWith({ stateMachines: { Many: many } });
    const items = Array.from({ length: 1_150 }, () => 0);
    expect(await failureOf(engine.execute('Many', { items }))).toMatchObject({
      name: 'States.Runtime',
      message: expect.stringContaining('passed 25000 events'),
    });
  });
});
