import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { restApiEvent } from '@agentstep/api/testing';
import { type AgentStepProps, AgentStepSmokeStack, GRANTS_NO_CALL_MAKES } from '@agentstep/cdk';
import {
  AGENT_STATE_MACHINE,
  LocalEngine,
  loadAgent,
  type SynthesizedAgent,
  type TaskCall,
  WORKFLOW_STATE_MACHINE,
} from '@agentstep/local';
import { parseAgentfile, TURN_EVENT_TYPES } from '@agentstep/protocol';
import {
  decideGate,
  demoTools,
  recordsOf,
  runLogOf,
  ScriptedModel,
  startWorkflow,
  storedSession,
  submitTurn,
  systemClock,
} from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { sigV4Fetch } from '@agentstep/runtime/sigv4';
import { readUntil } from '@agentstep/runtime/testing';
import { Duration, type Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { a2aClientWith, userMessage } from '../support/a2a-client.js';
import { ApiGatewayFront } from '../support/api-gateway-front.js';
import { AwsStandIn, OTLP_TRACES } from '../support/aws-stand-in.js';
import {
  type DeployedFunction,
  type Deployment,
  deployment,
  deploymentOf,
  existingFunction,
  lambdaEnvironment,
  TEST_ENV,
} from '../support/deployed-functions.js';
import { dynamoEndpoint, localDocumentClient } from '../support/dynamo-client.js';
import { EngineStepFunctions } from '../support/engine-step-functions.js';
import { deliveriesOf, describeStacksXml, type PutEntry } from '../support/event-bridge-stand-in.js';
import { batch, resultItems } from '../support/harness.js';
import {
  allows,
  iamRequestsOf,
  type RoleRequest,
  roleStatements,
  taskRequestsOf,
  triggerRequests,
} from '../support/iam-coverage.js';
import { functionFolders } from '../support/lambda-bundles.js';
import { LambdaRuntime } from '../support/lambda-runtime.js';
import { OtlpReceiver } from '../support/otlp-receiver.js';
import { runCli } from '../support/run-cli.js';

/**
 * The table the deployed functions and this test share, on the run's DynamoDB Local: named as the
 * construct's table is deployed (its logical id), so the functions' calls name it as IAM sees them.
 */
const TABLE = deployment({}).functions[0]?.environment.AGENTSTEP_TABLE ?? '';
/** Each agent with the `workspace` toolset: its tools function's files, as deployed (one bucket name for all). */
const WORKSPACE = { builtInTools: ['demo', 'workspace'] };
const WORKSPACE_BUCKET =
  deployment(WORKSPACE).functions.find(({ folder }) => folder === 'invoke-tool')?.environment
    .AGENTSTEP_WORKSPACE_BUCKET ?? '';
/** Each turn: one batch of three echo calls at once, then an answer. */
const PARALLEL_SCRIPT = [
  batch(['echo', { text: 'a' }], ['echo', { text: 'b' }], ['echo', { text: 'c' }]),
  'Done.<end>',
];

/** A loaded deployment: what it deploys, under which name its functions are loaded. */
interface Loaded extends Deployment {
  name: string;
}

describe.skipIf(dynamoEndpoint === '')(
  "every function, bundled as CDK deploys it, on Lambda's Node.js 22",
  () => {
    let runtime: LambdaRuntime;
    /** Step Functions, for the functions that start, stop and wake executions: the engine of the test. */
    const sfn = new EngineStepFunctions();
    let aws: AwsStandIn;
    const client = localDocumentClient();
    const stores = dynamoStores(TABLE, client);
    /** How often each function (by folder) was invoked in the Node.js 22 runtime. */
    const invoked = new Map<string, number>();
    /** Each function's bundle, built once for the run (test/setup/function-bundles.ts). */
    const bundles = inject('functionBundles');
    /** Who each access key is: the function that signs with it, in its deployment. */
    const callers = new Map<string, { loaded: Loaded; fn: DeployedFunction }>();
    /** Every deployment loaded, in order. */
    const deployments: Loaded[] = [];
    /** The state machine that issued each task token. */
    const tokenMachines = new Map<string, string>();
    /** The Lambda invocations the state machines' tasks made, by the machine's role. */
    const machineRequests: Array<RoleRequest & { loaded: Loaded }> = [];

    /** S3, for the workspace: a fake S3 server nobody here wrote, holding the workspace bucket. */
    let s3: S3rver;

    beforeAll(async () => {
      runtime = new LambdaRuntime();
      const directory = mkdtempSync(join(tmpdir(), 'agentstep-s3-'));
      s3 = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory,
        configureBuckets: [{ name: WORKSPACE_BUCKET }],
      });
      const { port } = await s3.run();
      aws = new AwsStandIn({
        dynamoEndpoint,
        s3Endpoint: `http://127.0.0.1:${port}`,
        operations: sfn.operations(),
      });
      await ensureEventLogTable(client, TABLE);
    });

    afterAll(async () => {
      await Promise.all([runtime?.stop(), aws?.close(), s3?.close()]);
    });

    /** Loads the functions of an agent deployed with `props` under `name/<folder>`. */
    function deploy(
      name: string,
      props: AgentStepProps | ((stack: Stack) => AgentStepProps),
    ): Promise<Loaded> {
      return load(name, deployment(props));
    }

    /** Loads the functions of `deployed` under `name/<folder>`. */
    async function load(name: string, deployed: Deployment): Promise<Loaded> {
      const loaded = { ...deployed, name };
      deployments.push(loaded);
      const services = await aws.environment();
      for (const fn of loaded.functions) {
        const bundle = bundles[fn.folder];
        if (bundle === undefined) throw new Error(`No bundle of functions/${fn.folder}.`);
        // DynamoDB Local takes access keys of letters and digits only.
        const caller = `${name}${fn.folder}`.replace(/[^A-Za-z0-9]/g, '');
        callers.set(caller, { loaded, fn });
        const { error } = await runtime.load(
          `${name}/${fn.folder}`,
          bundle,
          lambdaEnvironment(fn, services, caller),
        );
        if (error) throw new Error(`functions/${fn.folder} did not load: ${error.name}: ${error.message}`);
      }
      return loaded;
    }

    /** Invokes `deployment`'s function `folder` in the Node.js 22 runtime, counting it. */
    function call(deployment: string, folder: string, event: unknown): Promise<unknown> {
      invoked.set(folder, (invoked.get(folder) ?? 0) + 1);
      return runtime.call(`${deployment}/${folder}`, event);
    }

    /**
     * A local engine on the synthesized loop whose every Lambda task invokes `loaded`'s function in
     * the Node.js 22 runtime (the tools function under the name the model functions target too),
     * each invocation recorded as its state machine's role makes it (the version the task names);
     * the steps in `crashing` fail as a function that crashed does, before it runs.
     */
    function engineOn(loaded: Loaded, agent: SynthesizedAgent, crashing: ReadonlySet<string> = new Set()) {
      const invoker = (step: string) => {
        const fn = loaded.functions.find((each) => each.folder === step);
        const machine = WORKFLOW_STEPS.has(step) ? 'workflow' : 'loop';
        return (event: unknown) => {
          // A waiting task's token: the state machine that issued it authorizes its answer.
          const { token } = event as { token?: unknown };
          if (typeof token === 'string') tokenMachines.set(token, loaded.machines[machine].arn);
          if (fn)
            machineRequests.push({
              loaded,
              role: loaded.machines[machine].role,
              by: `the ${machine} state machine (${loaded.name})`,
              action: 'lambda:InvokeFunction',
              resource: `arn:aws:lambda:us-east-1:123456789012:function:${fn.logicalId}:1`,
            });
          return crashing.has(step) ? Promise.reject(crashed()) : call(loaded.name, step, event);
        };
      };
      const byName = Object.fromEntries([...agent.functions].map(([name, step]) => [name, invoker(step)]));
      const tools = loaded.functions.find((fn) => fn.folder === 'invoke-tool');
      if (tools) byName[tools.logicalId] = invoker('invoke-tool');
      // The in-process deps serve nothing here: every task runs in the Node.js 22 runtime.
      const deps = { ...stores, model: new ScriptedModel([]), clock: systemClock, tools: demoTools };
      const onTaskCall = (made: TaskCall) => {
        const machine = made.machine === WORKFLOW_STATE_MACHINE ? 'workflow' : 'loop';
        const by = `the ${machine} state machine (${loaded.name})`;
        for (const request of taskRequestsOf(made, loaded.machines.loop.arn))
          machineRequests.push({ ...request, loaded, role: loaded.machines[machine].role, by });
      };
      return new LocalEngine({ agent, deps, functions: byName, onTaskCall });
    }

    /** Runs a new turn of `prompt` on `engine` to its end. */
    async function turnOn(engine: LocalEngine, prompt: string, session = `s-${crypto.randomUUID()}`) {
      const turn = `t-${crypto.randomUUID()}`;
      await submitTurn({ session, turn, prompt }, { ...stores, clock: systemClock });
      const run = await engine.runTurn({ session, turn });
      return { session, turn, run };
    }

    it('runs on Node.js 22', async () => {
      expect(await runtime.version).toMatch(/^v22\./);
    });

    it('runs a turn with a parallel batch, each step in its function, and answers a duplicate start with the turn it ran', async () => {
      const loaded = await deploy('parallel', {
        modelScript: JSON.stringify(PARALLEL_SCRIPT),
        stepsPerExecution: 1,
      });
      const engine = engineOn(loaded, await loadAgent());
      const { session, turn, run } = await turnOn(engine, 'Echo three things.');
      expect(run.output).toMatchObject({ status: 'done', answer: 'Done.' });
      const events = await stores.log.read(session);
      expect(events.map((stored) => stored.event.type)).toEqual([
        'user',
        'turn_start',
        'call',
        'call',
        'call',
        'result',
        'respond',
        'turn_end',
      ]);
      expect(resultItems(events, `${turn}.1`)).toEqual(
        ['a', 'b', 'c'].map((content) => ({ tool: 'echo', status: 'success', content })),
      );
      // A request an AWS service delivered twice (the execution contract): the second execution
      // starts nothing, and DescribeTurn answers with how the first one's turn ended.
      const request = { message: 'Echo three things.', requestId: `r-${crypto.randomUUID()}` };
      const first = await engine.execute(AGENT_STATE_MACHINE, request);
      const second = await engine.execute(AGENT_STATE_MACHINE, request);
      expect(first.output).toMatchObject({ status: 'done', answer: 'Done.' });
      expect(second.output).toEqual(first.output);

      // The functions outside the loop, with the events their triggers send.
      const ended = { ...run.output, session };
      expect(
        await call(
          'parallel',
          'start-queued-turn',
          eventBridge(TURN_EVENT_TYPES.completed, 'agentstep', ended),
        ),
      ).toBeNull();
      const stopped = {
        executionArn: `arn:aws:states:us-east-1:123456789012:execution:Loop:${turn}`,
        name: turn,
        status: 'FAILED',
        input: JSON.stringify({ session, turn }),
      };
      await call(
        'parallel',
        'close-stopped-turn',
        eventBridge('Step Functions Execution Status Change', 'aws.states', stopped),
      );
      expect((await stores.log.read(session)).length).toBe(events.length);
      expect(await call('parallel', 'operator', { action: 'show', tenant: 'ann' })).toMatchObject({
        tenant: { tenant: 'ann', suspended: null },
      });
      const listed = (await call(
        'parallel',
        'api',
        restApiEvent({ method: 'GET', path: '/sessions', caller: 'arn:aws:iam::123456789012:user/ann' }),
      )) as { streamed: string };
      expect(listed.streamed).toMatch(/^{"statusCode":200,/);
      expect(listed.streamed).toContain('"sessions":[]');
      // The JWT authorizer refuses what is no token of its issuer before it fetches any key.
      await deploy('jwt', {
        api: { auth: { jwt: { issuer: 'https://issuer.example.com/', audience: 'agentstep' } } },
      });
      await expect(
        call('jwt', 'api-authorizer', {
          type: 'TOKEN',
          authorizationToken: 'Basic YW5uOnB3',
          methodArn: METHOD,
        }),
      ).rejects.toThrow('Unauthorized');
    });

    it('waits for an approval in AwaitApproval, and expires it in ExpireApproval when no one decides', async () => {
      const props = {
        modelScript: JSON.stringify([batch(['sleep', { ms: 0, value: 'late' }]), 'Done.<end>']),
        approvals: ['sleep'],
        approvalTimeout: Duration.seconds(1),
      };
      const loaded = await deploy('approvals', props);
      const engine = engineOn(loaded, await loadAgent(undefined, { approvalTimeoutSeconds: 1 }));
      const { session, turn, run } = await turnOn(engine, 'Sleep, if someone lets you.');
      expect(run.output).toMatchObject({ status: 'done' });
      expect(resultItems(await stores.log.read(session), `${turn}.1`)).toEqual([
        { tool: 'sleep', status: 'failure', content: 'approval timed out' },
      ]);
    });

    it('records a crashed tools function as a failed call (RecordToolFailure), and ends the turn in FailTurn or, failing that, ReleaseTurn', async () => {
      const loaded = await deploy('crashes', { modelScript: JSON.stringify(PARALLEL_SCRIPT) });
      const agent = await loadAgent();
      const toolsCrash = await turnOn(engineOn(loaded, agent, new Set(['invoke-tool'])), 'Echo.');
      expect(toolsCrash.run.output).toMatchObject({ status: 'done' });
      const items = resultItems(await stores.log.read(toolsCrash.session), `${toolsCrash.turn}.1`);
      expect(items.map((item) => item.status)).toEqual(['failure', 'failure', 'failure']);
      const modelCrash = await turnOn(engineOn(loaded, agent, new Set(['model-step'])), 'Hi.');
      expect(modelCrash.run.output).toMatchObject({ status: 'failed' });
      const failCrash = await turnOn(engineOn(loaded, agent, new Set(['model-step', 'fail-turn'])), 'Hi.');
      expect(failCrash.run.output).toMatchObject({ status: 'failed' });
      expect(await stores.log.holder(failCrash.session)).toBeUndefined();
    });

    it('keeps a session’s files in the workspace bucket: the tools function lists, writes and reads them in S3', async () => {
      const script = [
        batch(['write', { file: 'notes.md', content: '# Notes' }]),
        batch(['read', { file: 'notes.md' }], ['list', {}]),
        'Done.<end>',
      ];
      const loaded = await deploy('workspace', { ...WORKSPACE, modelScript: JSON.stringify(script) });
      const { session, turn, run } = await turnOn(engineOn(loaded, await loadAgent()), 'Take notes.');
      expect(run.output).toMatchObject({ status: 'done' });
      const [read, list] = resultItems(await stores.log.read(session), `${turn}.2`);
      expect(resultItems(await stores.log.read(session), `${turn}.1`)).toEqual([
        { tool: 'write', status: 'success', content: { file: 'notes.md', bytes: 7 } },
      ]);
      expect(read).toMatchObject({ tool: 'read', status: 'success' });
      expect(JSON.stringify(read?.content)).toContain('# Notes');
      expect(JSON.stringify(list?.content)).toContain('notes.md');
    });

    it('runs a sub-agent: the tools function starts its turn on the loop and reads its end', async () => {
      const script = [batch(['spawn_agent', { role: 'helper', task: 'Say hi.' }]), 'Hi.<end>'];
      const loaded = await deploy('sub-agents', {
        modelScript: JSON.stringify(script),
        builtInTools: ['demo', 'agents'],
      });
      sfn.engine = engineOn(loaded, await loadAgent());
      const { session, turn, run } = await turnOn(sfn.engine, 'Ask a helper.');
      expect(run.output).toMatchObject({ status: 'done', answer: 'Hi.' });
      const [item] = resultItems(await stores.log.read(session), `${turn}.1`);
      expect(item).toMatchObject({
        tool: 'spawn_agent',
        status: 'success',
        content: { role: 'helper', status: 'done' },
      });
    });

    it('runs a workflow run in AdvanceWorkflow, waiting at a human gate in AwaitGate', async () => {
      const loaded = await deploy('workflows', { modelScript: JSON.stringify(['Leaves fall.<end>']) });
      const engine = engineOn(loaded, await loadAgent());
      const run = `wf-${crypto.randomUUID().slice(0, 8)}`;
      const parsed = parseAgentfile(
        'NAME poem\nGOAL haiku "Write a haiku." SUPERVISED HUMAN\nRUN write USING haiku',
      );
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      await startWorkflow({ run, spec: parsed.spec, inputs: {} }, { log: stores.log, clock: systemClock });
      const running = engine.execute(WORKFLOW_STATE_MACHINE, { run });
      const gates = { ...stores, clock: systemClock, taskTokens: engine.taskTokens };
      const waitingGate = (log: ReturnType<typeof runLogOf>) =>
        log && recordsOf(log, 'gate').find(({ record }) => record.status === 'waiting')?.record.gate;
      const log = await readUntil(
        async () => runLogOf(run, await stores.log.read(run)),
        (read) => waitingGate(read) !== undefined,
      );
      await decideGate({ run, gate: waitingGate(log) ?? '', decision: 'approve', by: 'ann' }, gates);
      expect((await running).output).toMatchObject({ next: 'done' });
    });

    it('serves the API: turns it starts run on the loop, approvals it decides wake their calls, cancels and the operator’s suspension stop executions, a queued message starts when its session frees', async () => {
      // Each turn: `echo` waits for approval while `sleep` runs (no time at all, or a minute), then an answer.
      const deployedSleeping = async (name: string, ms: number) => {
        const script = [
          batch(['echo', { text: 'approved' }], ['sleep', { ms, value: 'slept' }]),
          'Done.<end>',
        ];
        const loaded = await deploy(name, { modelScript: JSON.stringify(script), approvals: ['echo'] });
        sfn.engine = engineOn(loaded, await loadAgent());
      };
      await deployedSleeping('api', 0);
      const api = (method: string, path: string, body?: unknown) => apiCall(call, method, path, body);
      /** A new session's turn, once its call waits for approval. */
      const waitingTurn = async () => {
        const { status, body } = await api('POST', '/sessions', { message: 'Echo, if you may, and sleep.' });
        expect(status).toBe(202);
        const session = String(body.session);
        const waiting = await readUntil(
          async () => (await api('GET', `/sessions/${session}/approvals`)).body,
          (listed) => (listed.approvals as unknown[]).length > 0,
        );
        const [approval] = waiting.approvals as Array<{ id: string }>;
        return { session, turn: String(body.turn), approval: String(approval?.id) };
      };

      const approved = await waitingTurn();
      const decision = { decision: 'approve' };
      const decided = await api(
        'POST',
        `/sessions/${approved.session}/approvals/${approved.approval}`,
        decision,
      );
      expect(decided).toMatchObject({ status: 200, body: { decision: 'approve' } });
      await sfn.settled();
      expect((await api('GET', `/sessions/${approved.session}`)).body).toMatchObject({ status: 'idle' });

      // A message queued behind a waiting turn starts once its session frees: the cancel stops the
      // execution (its sleeping call outlasts the grace), and EventBridge delivers the turn's end
      // to StartQueuedTurn.
      await deployedSleeping('api-sleeping', 60_000);
      const cancelled = await waitingTurn();
      const queue = { message: 'Then this.', ifBusy: 'enqueue' };
      expect((await api('POST', `/sessions/${cancelled.session}/messages`, queue)).status).toBe(202);
      expect(await api('POST', `/sessions/${cancelled.session}/cancel`)).toMatchObject({
        status: 202,
        body: { status: 'cancelled' },
      });
      const ended = {
        session: cancelled.session,
        turn: cancelled.turn,
        status: 'cancelled',
        answer: '',
        usage: { input: 0, output: 0 },
        message: 'The turn was cancelled.',
        tenant: CALLER,
      };
      await call('api', 'start-queued-turn', eventBridge(TURN_EVENT_TYPES.completed, 'agentstep', ended));
      const next = await readUntil(
        async () => (await api('GET', `/sessions/${cancelled.session}/approvals`)).body,
        (listed) => (listed.approvals as unknown[]).length > 0,
      );
      expect(next.approvals).toHaveLength(1);
      const stops = aws.calls.filter(({ target }) => target === 'AWSStepFunctions.StopExecution');
      expect(stops.map(({ accessKeyId }) => accessKeyId)).toContain('apiapi');

      // The operator suspends the caller: its running turns are cancelled at once.
      const answer = await call('api', 'operator', { action: 'suspend', tenant: CALLER, reason: 'test' });
      expect((answer as { cancelled: unknown[] }).cancelled).toHaveLength(1);
      expect((await api('POST', '/sessions', { message: 'Again.' })).status).toBe(403);
      await call('api', 'operator', { action: 'resume', tenant: CALLER });

      // A workflow run the API starts, and the human gate it answers: its goal's turn answers at once.
      const writer = await deploy('api-goals', { modelScript: JSON.stringify(['Leaves fall.<end>']) });
      sfn.engine = engineOn(writer, await loadAgent());
      const agentfile = 'NAME poem\nGOAL haiku "Write a haiku." SUPERVISED HUMAN\nRUN write USING haiku';
      const started = await api('POST', '/workflows', { agentfile });
      expect(started.status).toBe(202);
      const run = String(started.body.run);
      const gate = await readUntil(
        async () => {
          const log = runLogOf(storedSession(CALLER, run), await stores.log.read(storedSession(CALLER, run)));
          return log && recordsOf(log, 'gate').find(({ record }) => record.status === 'waiting')?.record.gate;
        },
        (waiting) => waiting !== undefined,
      );
      expect((await api('POST', `/workflows/${run}/gates/${gate}`, { decision: 'approve' })).status).toBe(
        200,
      );
      await sfn.settled();
    });

    it('calls a Lambda tool through Lambda’s Invoke, from the tools function', async () => {
      const loaded = await deploy('lambda-tools', (stack) => ({
        modelScript: JSON.stringify([batch(['deploy', { service: 'web' }]), 'Done.<end>']),
        lambdaTools: [
          {
            name: 'deploy',
            description: 'Deploys a service.',
            parameters: {
              type: 'object',
              properties: { service: { type: 'string' } },
              required: ['service'],
            },
            function: existingFunction(stack, 'Deployer'),
          },
        ],
      }));
      const { session, turn, run } = await turnOn(engineOn(loaded, await loadAgent()), 'Deploy web.');
      expect(run.output).toMatchObject({ status: 'done' });
      const [item] = resultItems(await stores.log.read(session), `${turn}.1`);
      expect(item).toMatchObject({ tool: 'deploy', status: 'success' });
      expect(JSON.stringify(item?.content)).toMatch(/Deployer/);
    });

    it('passes agentstep smoke --stack against the smoke stack: its outputs from CloudFormation, its API behind API Gateway (SigV4, streaming), its rule on EventBridge; and A2A through the same gateway', async () => {
      const loaded = await load(
        'smoke',
        deploymentOf((app) => {
          const stack = new AgentStepSmokeStack(app, 'AgentStepSmoke', { env: TEST_ENV });
          return { stack, agent: stack.agent };
        }),
      );
      sfn.engine = engineOn(loaded, await loadAgent());
      const front = new ApiGatewayFront(
        (event, onChunk) => {
          invoked.set('api', (invoked.get('api') ?? 0) + 1);
          return runtime.stream('smoke/api', event, onChunk);
        },
        new Map([[SMOKE_USER, { secret: 'smoke-secret', arn: 'arn:aws:iam::123456789012:user/smoke' }]]),
      );
      const apiUrl = await front.url;
      const describing = aws.answer('cloudformation.DescribeStacks', ({ StackName }) =>
        describeStacksXml(String(StackName), 'AgentStepSmoke', { ...loaded.outputs, ApiUrl: apiUrl }),
      );
      const putting = aws.answer('AWSEvents.PutEvents', async (input) => {
        const entries = input.Entries as PutEntry[];
        const ids = entries.map(() => crypto.randomUUID());
        const start = sfn.operations()['AWSStepFunctions.StartExecution'];
        entries.forEach((entry, index) => {
          for (const { arn, input: turn } of deliveriesOf(entry, ids[index] ?? '', loaded.resources))
            start?.({ stateMachineArn: arn, name: crypto.randomUUID(), input: JSON.stringify(turn) });
        });
        return { FailedEntryCount: 0, Entries: ids.map((EventId) => ({ EventId })) };
      });
      for (const request of triggerRequests(loaded.resources)) machineRequests.push({ ...request, loaded });
      const environment = {
        ...(await aws.environment()),
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: SMOKE_USER,
        AWS_SECRET_ACCESS_KEY: 'smoke-secret',
      };
      try {
        const { status, stdout, stderr } = await runCli(
          ['smoke', '--stack', 'AgentStepSmoke', '--timeout', '60'],
          { env: environment },
        );
        expect(stderr).toBe('');
        expect(
          stdout
            .trimEnd()
            .split('\n')
            .map((line) => line.split(/\s{2,}/).slice(0, 2)),
        ).toEqual([
          ['ok', 'turn'],
          ['ok', 'parallel batch'],
          ['ok', 'approval'],
          ['ok', 'cancel'],
          ['ok', 'trigger'],
          ['skip', 'console'],
          ['smoke: 5 passed, 0 failed, 1 skipped (stack AgentStepSmoke (us-east-1))'],
        ]);
        expect(stdout).toMatch(/trigger +an event started turn \S+ \(session \S+\), which ended limit/);
        expect(status).toBe(0);
        // Signed with a secret the gateway does not know: refused, each check failing as it says.
        const forged = await runCli(['smoke', '--stack', 'AgentStepSmoke', '--timeout', '60'], {
          env: { ...environment, AWS_SECRET_ACCESS_KEY: 'not-the-secret' },
        });
        expect(forged.stdout).toMatch(/^FAIL {2}turn +The request signature we calculated does not match/m);
        expect(forged.status).toBe(1);

        // The same function speaks A2A behind the gateway: @a2a-js/sdk's client, its requests signed.
        const credentials = { accessKeyId: SMOKE_USER, secretAccessKey: 'smoke-secret' };
        const signed = sigV4Fetch({ service: 'execute-api', region: 'us-east-1', credentials });
        const a2a = await a2aClientWith(apiUrl, signed);
        const card = await a2a.getAgentCard();
        expect(card.supportedInterfaces[0]?.url).toBe(`${apiUrl.replace(/\/$/, '')}/a2a`);
        const waiting = (await a2a.sendMessage(userMessage('Smoke over A2A'))) as Task;
        expect(TaskState[waiting.status?.state ?? 0]).toBe('TASK_STATE_INPUT_REQUIRED');
        const streamed = [];
        for await (const event of a2a.sendMessageStream(userMessage('approve', { taskId: waiting.id })))
          streamed.push(StreamResponse.toJSON(event));
        expect(streamed.at(-1)).toMatchObject({
          statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
        });
      } finally {
        describing();
        putting();
        await front.close();
      }
    });

    it('exports a turn’s traces when its end is announced: to a collector with its secret’s headers, and to CloudWatch’s OTLP endpoint signed for xray', async () => {
      const receiver = new OtlpReceiver();
      const otlpEndpoint = await receiver.url;
      const answering = aws.answer('secretsmanager.GetSecretValue', ({ SecretId }) => ({
        ARN: SecretId,
        SecretString: JSON.stringify({ 'x-collector-key': 'k-1' }),
      }));
      try {
        const loaded = await deploy('traces', (stack) => ({
          modelScript: JSON.stringify(PARALLEL_SCRIPT),
          api: false,
          traces: {
            otlpEndpoint,
            headers: Secret.fromSecretCompleteArn(stack, 'OtlpHeaders', OTLP_HEADERS),
            captureContent: true,
          },
        }));
        await deploy('traces-cloudwatch', { api: false, traces: 'cloudwatch' });
        const { session, run } = await turnOn(engineOn(loaded, await loadAgent()), 'Echo three things.');
        const ended = eventBridge(TURN_EVENT_TYPES.completed, 'agentstep', { ...run.output, session });

        expect(await call('traces', 'export-traces', ended)).toBeNull();
        expect(receiver.exports).toHaveLength(1);
        const [sent] = receiver.exports;
        expect(sent?.contentType).toBe('application/x-protobuf');
        expect(sent?.headers['x-collector-key']).toBe('k-1');
        // OTLP protobuf carries strings as their UTF-8 bytes: the spans' names, the prompt (captured).
        for (const text of [
          'invoke_agent agentstep',
          'chat scripted',
          'execute_tool echo',
          'Echo three things.',
        ])
          expect(sent?.body.toString('utf8')).toContain(text);

        expect(await call('traces-cloudwatch', 'export-traces', ended)).toBeNull();
        const [signed] = aws.calls.filter(({ target }) => target === OTLP_TRACES);
        expect(signed).toMatchObject({
          accessKeyId: 'tracescloudwatchexporttraces',
          input: { contentType: 'application/x-protobuf', service: 'xray' },
        });
        expect(String(signed?.input.body)).toContain('execute_tool echo');
        expect(String(signed?.input.body)).not.toContain('Echo three things.');
      } finally {
        answering();
        await receiver.close();
      }
    });

    it('records what EventBridge and Pipes do with the triggers’ roles: rules, schedules and a queue starting turns', () => {
      const triggered = deployment({ api: false }, (agent, stack) => {
        agent.runOnSchedule(Schedule.rate(Duration.days(1)), { message: 'Write the daily report.' });
        agent.runOnEvent(new Rule(stack, 'Orders', { eventPattern: { source: ['shop'] } }), {
          message: 'Order <$.detail.orderId> failed.',
        });
        agent.runOnQueue(new Queue(stack, 'Requests', { enforceSSL: true }));
      });
      const loaded = { ...triggered, name: 'triggers' };
      deployments.push(loaded);
      const requests = triggerRequests(loaded.resources);
      expect(new Set(requests.map(({ by }) => by.split(' ')[0]))).toEqual(new Set(['rule', 'pipe']));
      for (const request of requests) machineRequests.push({ ...request, loaded });
    });

    // The three checks below judge what every scenario above recorded: they run after them, in
    // the file's order (a run filtered to one of them alone has no calls to judge, and says so).
    it('has invoked every function at least once', () => {
      expect(functionFolders().filter((folder) => !invoked.has(folder))).toEqual([]);
    });

    it('made only AWS calls their roles allow: every function’s and every state machine’s, as deployed', async () => {
      const requests = [...functionRequests(), ...machineRequests];
      expect(requests.length).toBeGreaterThan(0);
      const denied: string[] = [];
      for (const request of distinct(requests)) {
        const statements = roleStatements(request.role, request.loaded.resources);
        if (!(await allows(request.role, statements, request)))
          denied.push(
            `${request.by}: ${request.action} on ${request.resource}, not allowed by role ${request.role}; the statement that would allow it: ${JSON.stringify(allowing(request))}`,
          );
      }
      expect(denied).toEqual([]);
    });

    it('needs every statement of every role: removing any one denies a recorded call, or the construct says why no call makes it', async ({
      annotate,
    }) => {
      const requests = distinct([...functionRequests(), ...machineRequests]);
      const unneeded = new Map<string, string>();
      const needed = new Set<string>();
      for (const loaded of deployments)
        for (const role of rolesOf(loaded)) {
          const made = requests.filter((request) => request.loaded === loaded && request.role === role);
          const statements = roleStatements(role, loaded.resources);
          // A statement is needed when it alone allows a call no other statement allows.
          const allowers = await Promise.all(
            made.map(async (request) => {
              const each = await Promise.all(
                statements.map((statement) => allows(role, [statement], request)),
              );
              return statements.filter((_, index) => each[index]);
            }),
          );
          for (const statement of statements) {
            const key = `${role}: ${JSON.stringify(statement.Action)} on ${JSON.stringify(statement.Resource)}`;
            if (allowers.some((allowing) => allowing.length === 1 && allowing[0] === statement))
              needed.add(key);
            else unneeded.set(key, [statement.Action].flat().join(' '));
          }
        }
      const reasoned = (actions: string) =>
        actions
          .split(' ')
          .every((action) => GRANTS_NO_CALL_MAKES.some((grant) => grant.actions.includes(action)));
      const unused = [...unneeded].filter(([key]) => !needed.has(key));
      const unexplained = unused.filter(([, actions]) => !reasoned(actions));
      expect(unexplained.map(([key]) => key)).toEqual([]);
      // The least-privilege report: each grant no recorded call needs, with the construct's reason.
      const report = unused.map(([key, actions]) => `${key}: ${reasonOf(actions)}`);
      expect(report.length).toBeGreaterThan(0);
      await annotate(`Grants no recorded call needs, and why each is kept:\n${report.join('\n')}`);
    });

    /** The AWS calls the functions made, each as IAM authorizes it, by the function's role. */
    function functionRequests(): Array<RoleRequest & { loaded: Loaded }> {
      return aws.calls.flatMap((made) => {
        const caller = callers.get(made.accessKeyId);
        if (caller === undefined) return [];
        const by = `functions/${caller.fn.folder} (${caller.loaded.name})`;
        return iamRequestsOf(made, (token) => tokenMachines.get(token)).map((request) => ({
          ...request,
          // The engine's loop, as a function of the deployment names it ($$.StateMachine.Id): its loop.
          ...(request.resource === ENGINE_LOOP ? { resource: caller.loaded.machines.loop.arn } : {}),
          loaded: caller.loaded,
          role: caller.fn.role,
          by,
        }));
      });
    }
  },
);

/** The statement a role would need for `request`: its action on its resource, under its condition keys. */
function allowing({ action, resource, context }: RoleRequest) {
  const condition = context && { StringLike: context };
  return {
    Effect: 'Allow',
    Action: action,
    Resource: resource,
    ...(condition ? { Condition: condition } : {}),
  };
}

/** Why the construct keeps a grant of `actions` that no call of AgentStep's code makes. */
function reasonOf(actions: string): string {
  const reasons = new Set(
    actions
      .split(' ')
      .map((action) => GRANTS_NO_CALL_MAKES.find((grant) => grant.actions.includes(action))?.reason),
  );
  return [...reasons].join(' ');
}

/** The roles of a deployment: its functions', its state machines' and its triggers'. */
function rolesOf(loaded: Loaded): string[] {
  return [
    ...new Set([
      ...loaded.functions.map((fn) => fn.role),
      loaded.machines.loop.role,
      loaded.machines.workflow.role,
      ...triggerRequests(loaded.resources).map(({ role }) => role),
    ]),
  ];
}

/** Each request once: by deployment, role, action and resource. */
function distinct<Request extends RoleRequest & { loaded: Loaded }>(requests: readonly Request[]): Request[] {
  const seen = new Map<string, Request>();
  for (const request of requests)
    seen.set([request.loaded.name, request.role, request.action, request.resource].join(' '), request);
  return [...seen.values()];
}

/** A method of the API, as a TOKEN authorizer's event names it. */
const METHOD = 'arn:aws:execute-api:us-east-1:123456789012:abc123/prod/GET/sessions';

/** The loop on the local engine, as its executions' context names it. */
const ENGINE_LOOP = `arn:aws:states:us-east-1:123456789012:stateMachine:${AGENT_STATE_MACHINE}`;

/** The steps the workflow state machine runs; the loop runs the others. */
const WORKFLOW_STEPS: ReadonlySet<string> = new Set(['advance-workflow', 'await-gate']);

/** What Step Functions reports of a Lambda function that crashed: its runtime exited. */
function crashed(): Error {
  return Object.assign(new Error('RequestId: r-1 Error: Runtime exited with error: signal: killed'), {
    name: 'Runtime.ExitError',
  });
}

/** An event as EventBridge delivers it to a rule's target. */
function eventBridge(detailType: string, source: string, detail: unknown) {
  return {
    version: '0',
    id: crypto.randomUUID(),
    'detail-type': detailType,
    source,
    account: '123456789012',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [],
    detail,
  };
}

/** The secret holding the traces collector's headers, by its complete ARN (as the function names it). */
const OTLP_HEADERS = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:agent/otlp-headers-AbCdEf';

/** The access key `agentstep smoke` signs with, as a user of the AWS account would. */
const SMOKE_USER = 'smokeuser';

/** The IAM principal the API tests sign as: the tenant. */
const CALLER = 'arn:aws:iam::123456789012:user/ann';

/** A request to the API function in the Node.js 22 runtime, signed as {@link CALLER}: its status and JSON body. */
async function apiCall(
  call: (deployment: string, folder: string, event: unknown) => Promise<unknown>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { streamed } = (await call(
    'api',
    'api',
    restApiEvent({ method, path, caller: CALLER, body: body === undefined ? null : JSON.stringify(body) }),
  )) as {
    streamed: string;
  };
  const prelude = streamed.indexOf('\u0000'.repeat(8));
  const { statusCode } = JSON.parse(streamed.slice(0, prelude)) as { statusCode: number };
  return { status: statusCode, body: JSON.parse(streamed.slice(prelude + 8) || '{}') };
}
