import {
  type Budget,
  budgetSchema,
  type ContextSettings,
  contextSettingsSchema,
  costBudgetUnpriced,
  DEFAULT_PRICES,
  ENV_NAMES,
  modelChoiceAmong,
  type PriceTable,
  priceTableSchema,
  providerModel,
  SCRIPTED_MODEL,
  tenantCeilingSchema,
  UNNAMED_AGENT,
} from '@agentstep/protocol';
import { Duration, Names, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, type IEventBus, Rule, type Schedule } from 'aws-cdk-lib/aws-events';
import { type Grant, type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue, Queue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import * as z from 'zod';
import { AgentStateMachine } from './agent-state-machine.js';
import { AgentStepApi, type AgentStepApiOptions, type ApiFunctionName } from './agent-step-api.js';
import type { AgentStepConsole } from './agent-step-console.js';
import { type ApprovalProps, approvalEnv } from './approval-env.js';
import { checked } from './checked.js';
import { currentVersion } from './current-version.js';
import { deployedAgentVersion } from './deployed-agent-version.js';
import type { AgentDeployment } from './deployment-preference.js';
import { EventLogTable } from './event-log-table.js';
import { type EventTurnOptions, eventTurnTarget } from './event-turn-target.js';
import { ExecutionFailureAlarm } from './execution-failure-alarm.js';
import { grantBedrockModel } from './grant-bedrock-model.js';
import { grantInvokeFunctions } from './grant-invoke-functions.js';
import { grantReadSecrets } from './grant-read-secrets.js';
import {
  grantQueueTableAccess,
  grantSessionReads,
  grantSubAgentTableAccess,
  grantTableAccess,
} from './grant-table-access.js';
import { LiveAlias } from './live-alias.js';
import { privateBucket } from './private-bucket.js';
import { type QueueTurnOptions, QueueTurnPipe } from './queue-turn-pipe.js';
import { resolvedProps } from './resolved-props.js';
import { type DeployedStepName, StepLambda, type StepName } from './step-lambda.js';
import { StoppedExecutionRule } from './stopped-execution-rule.js';
import { subAgentStartPolicy } from './sub-agent-start-policy.js';
import { TenantOperator } from './tenant-operator.js';
import { type AgentTraces, TraceExport } from './trace-export.js';
import { triggerDeadLetterQueue } from './trigger-dead-letter-queue.js';
import { TurnEndedRule } from './turn-ended-rule.js';
import { WorkflowStateMachine } from './workflow-state-machine.js';

/** An existing Lambda function offered to the model as a tool. */
export interface LambdaToolProps {
  /** How the model calls it: letters, digits, `_`, `.` or `-`. */
  readonly name: string;
  /** What it does, for the system prompt. */
  readonly description: string;
  /** JSON Schema (type object) of its arguments; calls are validated against it before it runs. */
  readonly parameters: Record<string, unknown>;
  readonly function: IFunction;
  /** Runs alone: a batch that calls it runs one call at a time. @default false */
  readonly sequential?: boolean;
  /** Time limit of one call. @default 30 seconds */
  readonly timeout?: Duration;
  /** Each call waits for a person's approval before it runs. @default false */
  readonly approval?: boolean;
  /**
   * Running it twice has the effect of running it once, so a call whose outcome is unknown (its
   * run timed out or crashed) may run again; otherwise such a call fails `outcome unknown`. @default false
   */
  readonly idempotent?: boolean;
  /** Its event gets the call's `idempotencyKey` beside the arguments. @default false */
  readonly passIdempotencyKey?: boolean;
}

/** Props of {@link AgentStep}; every one has a default, so `new AgentStep(this, 'Agent')` deploys. */
export interface AgentStepProps extends ApprovalProps {
  /**
   * Your agent file (its default export made by `defineAgent`): absolute, or relative to the
   * working directory the CDK app runs in (for `cdk synth`, the folder of `cdk.json`). It is loaded
   * at synthesis as `agentstep` loads it (tsx, in a process of its own). Its model, model
   * profiles, toolsets, fetch hosts, approvals, budget, limits, concurrency, context, prices and
   * script are this construct's defaults, as the CLI's flags go over them: a prop given here
   * replaces the file's, but `budget`, `modelProfiles` and `context` merge over the file's (the
   * prop's keys win). It is bundled into the functions that run or describe its tools or call its
   * providers (invoke-tool, model-step, advance-turn, api), which read its own tools, Lambda tools,
   * providers, MCP servers and instructions there; the tools function may invoke its Lambda
   * tools. Its MCP servers must have `https://` urls (a `stdio:` or `http://` one fails
   * synthesis); the secrets their headers name (a name, in the stack's account and region, or a
   * complete ARN) may be read (`secretsmanager:GetSecretValue`) by the functions that list and
   * call their tools.
   * @default - none: built-in toolsets and providers only
   */
  readonly agent?: string;
  /**
   * Built-in toolsets the agent may call: `demo`, `workspace` (files in S3), `http`, `agents`
   * (sub-agents, each a turn of this loop; the tools function then runs up to 15 minutes).
   * @default - the agent file's toolsets, else ['demo']
   */
  readonly builtInTools?: readonly string[];
  /** Hosts `http_fetch` may fetch, exact or `*.domain`; it always refuses non-public addresses. @default none */
  readonly httpAllowHosts?: readonly string[];
  /**
   * Existing Lambda functions offered as tools, besides the agent file's `lambdaTools`; each gets
   * its arguments as its event. @default none
   */
  readonly lambdaTools?: readonly LambdaToolProps[];
  /**
   * Tools whose calls wait for a person's approval before they run (`'*'`: every tool), besides
   * Lambda tools marked `approval`. A decision comes through the API. @default none
   */
  readonly approvals?: readonly string[];
  /**
   * How long a call waits for a decision before it fails with `approval timed out` (whole
   * seconds). @default Duration.hours(24)
   */
  readonly approvalTimeout?: Duration;
  /**
   * The model, as `--model` names it: `scripted`, `bedrock:<modelId>`, `openai:<model>`,
   * `anthropic:<model>` or `<provider>:<model>` of the agent file's own providers, checked at
   * synthesis. A Bedrock model is granted to the model functions' roles. @default 'scripted'
   */
  readonly model?: string;
  /**
   * Named model profiles, as a workflow agent's `REQUIRES "name"` picks one: each name to a model
   * as `model` names it, checked at synthesis. A Bedrock profile is granted like the model; one on
   * the model's provider shares `modelBaseUrl` and `modelApiKey`. A turn that asks for a profile
   * not listed fails with `UnknownModelProfile`. Merged over the agent file's (these names win).
   * @default - the agent file's, else none
   */
  readonly modelProfiles?: Readonly<Record<string, string>>;
  /** For `openai:` and `anthropic:` models: the server's base URL. @default the provider's API */
  readonly modelBaseUrl?: string;
  /**
   * For `openai:` and `anthropic:` models: the secret whose plain-text value is the API key, read
   * once per cold start by the model functions (granted read). @default - none
   */
  readonly modelApiKey?: ISecret;
  /**
   * What a session may spend before its turns stop with status `limit`: tokens and estimated
   * cost over all its turns, wall-clock seconds per turn. A turn's input may set its own. Merged
   * over the agent file's (these keys win). @default - the agent file's, else no budget
   */
  readonly budget?: Budget;
  /**
   * How model steps keep the context within the model's window (decision 0035): `windowTokens`
   * (input tokens per request, over each model's known window), `compactAt` (the share of it past
   * which a step compacts first), `strategy` (`summarize` or `drop`) and `summaryModel` (as `model`
   * names one, checked at synthesis and granted like a profile), as `defineAgent`'s `context` and
   * the CLI's `--context-window` and `--compaction` set them. Merged over the agent file's (these
   * keys win). @default - the agent file's, else each model's known window, 0.8, `summarize` and
   * the turn's own model; a model with no known window is not compacted
   */
  readonly context?: ContextSettings;
  /** Prices (USD per million tokens) by model id, merged over the built-in table. @default - built-in */
  readonly prices?: PriceTable;
  /**
   * What every tenant may spend on models per UTC day and month (decision 0043), in US dollars (from
   * the price table) and in tokens (input + output): each model step reserves its estimated cost
   * first; past it, the tenant's running turns end `limit` and its new turns answer
   * `429 TenantCeilingReached`. An operator may give one tenant its own (`grantOperate`).
   * @default - none: only tenants an operator gave a ceiling are capped
   */
  readonly tenantCeiling?: {
    readonly usdPerDay?: number;
    readonly usdPerMonth?: number;
    readonly tokensPerDay?: number;
    readonly tokensPerMonth?: number;
  };
  /**
   * The scripted model's script: JSON text of an array of model steps.
   * @default - the agent file's; with neither and the scripted model, a script of one
   * step whose answer says to give the agent a model or a script (a deploy without either works)
   */
  readonly modelScript?: string;
  /**
   * The agent's own instructions, placed before the protocol in the system prompt: they override
   * the agent file's. They travel in the model functions' environment, which Lambda limits to 4 KB
   * (synthesis fails beyond it); an agent file's own instructions do not (they are bundled).
   * @default - the agent file's, else none
   */
  readonly instructions?: string;
  /** Calls of one batch that may run at once, 1–40. @default 10 */
  readonly maxConcurrency?: number;
  /** Model steps one turn may take. @default 50 */
  readonly maxSteps?: number;
  /** Model steps per execution before the turn continues in a fresh one. @default 25 */
  readonly stepsPerExecution?: number;
  /** Calls of one tool with the same arguments that end a turn `limit` (`RepeatedCall`). @default 3 */
  readonly repeatedCalls?: number;
  /** Model steps in a row without a successful call that end a turn `limit` (`NoProgress`). @default 10 */
  readonly stepsWithoutProgress?: number;
  /**
   * What happens to everything that outlives a stack by default when the stack is deleted (or a
   * deploy replaces it): the event-log table (deletion protection on unless `DESTROY`), the
   * workspace and console buckets, the triggers' dead-letter queue, the loop's, workflows' and
   * API's log groups. `DESTROY` deletes them all, the buckets emptied first: `cdk destroy` leaves
   * nothing of the agent behind, for stacks that only test (`AgentStepSmokeStack`). Kept whatever
   * this says: the loop's published versions (a deploy must not delete the version running turns
   * continue on; deleting the state machine deletes them all) and API Gateway's CloudWatch Logs
   * role (`api.cloudWatchRole`, the account's and region's, which its other APIs use). @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * How long a turn may run, across the fresh executions it continues in (the first waits for
   * them). @default - 7 days plus twice `approvalTimeout`
   */
  readonly executionTimeout?: Duration;
  /**
   * Where every turn's end is announced (`source: "agentstep"`, `Agent Turn Completed` or
   * `Agent Turn Failed`, the turn's result as detail), and every workflow run's (`Workflow Run
   * Completed` or `Workflow Run Failed`). @default - the account's default event bus
   */
  readonly eventBus?: IEventBus;
  /** Where the alarm on failed, timed-out and aborted executions is announced. @default - no action */
  readonly alarmTopic?: ITopic;
  /**
   * How a deploy moves new turns to the new version of the loop (decision 0042): `all-at-once`,
   * `canary` or `linear` (`percent`, default 10, every `intervalMinutes`, default 5), rolled back
   * while any of `alarms` (default: `failureAlarm`) is in alarm. Running turns finish on the version
   * they started on, whatever the strategy. @default - all at once, watched by `failureAlarm`
   */
  readonly deployment?: AgentDeployment;
  /** How long a workflow's human gate waits for a person before its goal fails. @default Duration.days(7) */
  readonly gateTimeout?: Duration;
  /**
   * The HTTP API on API Gateway (a regional REST API streaming from Lambda), or `false` for none.
   * @default - the API, with IAM authorization
   */
  readonly api?: false | AgentStepApiOptions;
  /**
   * Exports each turn's traces when it ends (decision 0047): a function the turn-end events trigger
   * (never a step of the loop) derives the turn's OpenTelemetry GenAI spans from its log and usage
   * ledger, named for the agent file's agent (else `agentstep`), and sends them to an OTLP/HTTP
   * collector (`otlpEndpoint`, as `OTEL_EXPORTER_OTLP_ENDPOINT` gives it, `https://`; `headers`, a
   * secret holding a JSON object of header name → value; `captureContent`), or with `'cloudwatch'`
   * to CloudWatch's OTLP traces endpoint in the stack's region, signed with SigV4 (granted
   * `xray:PutTraceSegments`; CloudWatch Transaction Search must be enabled). A failed export is
   * retried by Lambda, and the log keeps every turn's spans: `agentstep traces SESSION --otlp URL`.
   * @default - none exported
   */
  readonly traces?: AgentTraces;
}

/**
 * An agent on AWS in one statement: the event-log table, one Lambda per loop step, the built-in
 * tools' Lambda, the Step Functions state machine that runs the loop and the HTTP API.
 */
export class AgentStep extends Construct {
  readonly table: TableV2;
  readonly stateMachine: StateMachine;
  /** Runs any Agentfile workflow, each goal a child execution of the loop (no idle cost). */
  readonly workflowStateMachine: StateMachine;
  /** Every model its functions may call, checked: the model, the profiles' others, the summary model. */
  readonly models: readonly string[];
  /**
   * The version of the agent it deploys (decision 0040), which each turn records in its
   * `turn_start`: a short hash of its settings, tools and loop (`agentstep version` locally).
   */
  readonly version: string;
  /** The sessions' files, when the `workspace` toolset is enabled. */
  readonly workspace: Bucket | undefined;
  /**
   * The loop's functions, by step (`invoke-tool` hosts the built-in tools), the workflows', and
   * `start-queued-turn`, which starts a session's queued message when its turn ends.
   */
  readonly functions: Readonly<Record<StepName | DeployedStepName, LambdaFunction>>;
  /** In alarm when an execution of the loop failed, timed out or was aborted. */
  readonly failureAlarm: Alarm;
  /**
   * The loop's version this deploy published and its `live` alias (decision 0042): the API, the
   * triggers, workflows and sub-agents start every execution through `live.arn`, so an execution
   * runs on one version of the loop and its functions from its first state to its last.
   */
  readonly live: LiveAlias;
  /** The HTTP API (`api` prop), unless it is `false`. */
  readonly api: RestApi | undefined;
  /** The HTTP API's functions: `api`, and `api-authorizer` with JWT authorization; none without an API. */
  readonly apiFunctions: Readonly<Partial<Record<ApiFunctionName, LambdaFunction>>>;
  /**
   * The operator function (decisions 0041 and 0043), the deployed `agentstep tenants`: invoked with
   * `{"action": "suspend" | "resume" | "set-ceiling" | "show", "tenant" | "all", …}`, it is the kill
   * switch and each tenant's own ceiling. Only principals given {@link grantOperate} reach it.
   */
  readonly operator: LambdaFunction;
  /** The web console on CloudFront, its `url` the OIDC client's redirect URI (the api prop's `console`). */
  readonly console: AgentStepConsole | undefined;
  /** The function that exports each turn's traces when it ends (the `traces` prop); none without it. */
  readonly tracesFunction: LambdaFunction | undefined;
  #triggerDeadLetters: Queue | undefined;
  #schedules = 0;
  readonly #removalPolicy: RemovalPolicy;

  constructor(scope: Construct, id: string, given: AgentStepProps = {}) {
    super(scope, id);
    const {
      props,
      agentFile,
      providers,
      agentLambdaTools,
      agentMcpSecrets,
      agentA2aSecrets,
      agentTools,
      agentName,
    } = resolvedProps(given);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.#removalPolicy = removalPolicy;
    const modelName = modelChoiceAmong(providers);
    const model = checked(modelName, props.model ?? SCRIPTED_MODEL, 'model');
    const modelProfiles = checked(
      z.record(z.string().min(1), modelName),
      props.modelProfiles ?? {},
      'modelProfiles',
    );
    const context = checked(contextSettingsSchema, props.context ?? {}, 'context');
    const summaryModel =
      context.summaryModel === undefined
        ? []
        : [checked(modelName, context.summaryModel, 'context.summaryModel')];
    const models = [...new Set([model, ...Object.values(modelProfiles), ...summaryModel])];
    this.models = models;
    refuseUnpricedCostBudget(props, models);
    const maxConcurrency = props.maxConcurrency ?? 10;
    if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1 || maxConcurrency > 40) {
      throw new Error(`maxConcurrency must be a whole number from 1 to 40, received ${maxConcurrency}.`);
    }
    this.table = new EventLogTable(this, 'EventLog', { removalPolicy }).table;
    const shared = { [ENV_NAMES.table]: this.table.tableName };
    const toolsets = props.builtInTools ?? ['demo'];
    this.workspace = toolsets.includes('workspace') ? workspaceBucket(this, removalPolicy) : undefined;
    const tools = {
      ...shared,
      [ENV_NAMES.toolsets]: toolsets.join(','),
      ...(props.lambdaTools?.length
        ? { [ENV_NAMES.lambdaTools]: lambdaToolsEnv(this, props.lambdaTools) }
        : {}),
      ...(props.httpAllowHosts ? { [ENV_NAMES.httpAllowHosts]: props.httpAllowHosts.join(',') } : {}),
      ...approvalEnv(props),
    };
    const make = (
      step: StepName | DeployedStepName,
      environment: Record<string, string>,
      timeout?: Duration,
    ) =>
      new StepLambda(this, step, {
        step,
        environment,
        ...(timeout ? { timeout } : {}),
        ...(agentFile && AGENT_STEPS.has(step) ? { agentFile } : {}),
      }).function;
    const subAgents = toolsets.includes('agents');
    // A call of the `agents` toolset waits up to 14 minutes for its sub-agents: Lambda's maximum.
    const invokeTool = make(
      'invoke-tool',
      { ...tools, ...(this.workspace ? { [ENV_NAMES.workspaceBucket]: this.workspace.bucketName } : {}) },
      Duration.minutes(subAgents ? 15 : 5),
    );
    if (this.workspace) grantWorkspace(this.workspace, invokeTool);
    for (const tool of props.lambdaTools ?? []) tool.function.grantInvoke(invokeTool);
    grantInvokeFunctions(invokeTool, agentLambdaTools);
    // Only the tools function sends remote A2A agents messages: the model steps only describe them.
    grantReadSecrets(invokeTool, [...agentMcpSecrets, ...agentA2aSecrets]);
    const ceilingEnv = props.tenantCeiling
      ? {
          [ENV_NAMES.tenantCeiling]: JSON.stringify(
            checked(tenantCeilingSchema, props.tenantCeiling, 'tenantCeiling'),
          ),
        }
      : {};
    const modelEnv = {
      ...tools,
      ...ceilingEnv,
      // Calls name the tools function's current version, as every task names its function's.
      [ENV_NAMES.toolsFunction]: currentVersion(invokeTool).functionArn,
      [ENV_NAMES.model]: model,
      [ENV_NAMES.maxConcurrency]: String(maxConcurrency),
      ...modelScriptEnv(model, props.modelScript),
      ...modelProfilesEnv(modelProfiles),
      ...(Object.keys(context).length > 0 ? { [ENV_NAMES.context]: JSON.stringify(context) } : {}),
      ...(props.modelBaseUrl ? { [ENV_NAMES.modelBaseUrl]: props.modelBaseUrl } : {}),
      ...(props.instructions ? { [ENV_NAMES.instructions]: props.instructions } : {}),
      ...(props.modelApiKey ? { [ENV_NAMES.modelApiKeySecret]: props.modelApiKey.secretArn } : {}),
      ...(props.prices
        ? { [ENV_NAMES.prices]: JSON.stringify(checked(priceTableSchema, props.prices, 'prices')) }
        : {}),
    };
    const functions = {
      'start-turn': make('start-turn', { ...shared, ...limitsEnv(props) }),
      'model-step': make('model-step', modelEnv, Duration.minutes(5)),
      'invoke-tool': invokeTool,
      'record-tool-failure': make('record-tool-failure', shared),
      'await-approval': make('await-approval', shared),
      'expire-approval': make('expire-approval', shared),
      'advance-turn': make('advance-turn', modelEnv, Duration.minutes(5)),
      'finish-turn': make('finish-turn', shared),
      'fail-turn': make('fail-turn', shared),
      'release-turn': make('release-turn', shared),
      'describe-turn': make('describe-turn', shared),
      'close-stopped-turn': make('close-stopped-turn', {
        ...shared,
        ...(props.eventBus ? { [ENV_NAMES.eventBus]: props.eventBus.eventBusName } : {}),
      }),
    };
    const workflowFunctions = {
      'advance-workflow': make('advance-workflow', shared),
      'await-gate': make('await-gate', shared),
    };
    for (const [step, fn] of Object.entries({ ...functions, ...workflowFunctions }))
      grantTableAccess(this.table, step as StepName, fn);
    for (const fn of [functions['model-step'], functions['advance-turn']]) {
      props.modelApiKey?.grantRead(fn);
      // They list the agent's MCP tools, as the tools function calls them: with the same headers.
      grantReadSecrets(fn, agentMcpSecrets);
      for (const model of models) {
        const named = providerModel(model);
        if (named?.provider === 'bedrock') grantBedrockModel(fn, named.modelId);
      }
    }
    const loop = new AgentStateMachine(this, 'Loop', {
      functions,
      toolFunctions: [currentVersion(invokeTool)],
      ...(props.executionTimeout ? { executionTimeout: props.executionTimeout } : {}),
      ...(props.approvalTimeout ? { approvalTimeout: props.approvalTimeout } : {}),
      ...(props.eventBus ? { eventBus: props.eventBus } : {}),
      logRemovalPolicy: removalPolicy,
    });
    this.stateMachine = loop.stateMachine;
    this.version = deployedAgentVersion(props, agentTools, loop);
    functions['start-turn'].addEnvironment(ENV_NAMES.agentVersion, this.version);
    if (subAgents) grantSubAgentTableAccess(this.table, invokeTool);
    if (subAgents && invokeTool.role)
      subAgentStartPolicy(this, 'SubAgentStarts', invokeTool.role, this.stateMachine);
    this.failureAlarm = new ExecutionFailureAlarm(this, 'ExecutionFailures', {
      stateMachine: this.stateMachine,
      ...(props.alarmTopic ? { topic: props.alarmTopic } : {}),
    }).alarm;
    this.live = new LiveAlias(this, 'Live', {
      stateMachine: this.stateMachine,
      failureAlarm: this.failureAlarm,
      ...(props.deployment ? { deployment: props.deployment } : {}),
    });
    this.workflowStateMachine = new WorkflowStateMachine(this, 'Workflows', {
      advance: workflowFunctions['advance-workflow'],
      awaitGate: workflowFunctions['await-gate'],
      agent: this.stateMachine,
      agentLiveArn: this.live.arn,
      ...(props.gateTimeout ? { gateTimeout: props.gateTimeout } : {}),
      ...(props.eventBus ? { eventBus: props.eventBus } : {}),
      logRemovalPolicy: removalPolicy,
    }).stateMachine;
    // It announces the ends of the turns it closes, as the state machine announces the others.
    (props.eventBus ?? EventBus.fromEventBusName(this, 'DefaultBus', 'default')).grantPutEventsTo(
      functions['close-stopped-turn'],
    );
    new StoppedExecutionRule(this, 'StoppedExecutions', {
      stateMachine: this.stateMachine,
      closer: functions['close-stopped-turn'],
    });
    // Each turn's end starts its session's next queued message (`agentstep serve` does it in-process).
    const startQueuedTurn = make('start-queued-turn', {
      ...shared,
      [ENV_NAMES.stateMachine]: this.live.arn,
    });
    grantQueueTableAccess(this.table, startQueuedTurn);
    this.stateMachine.grants.startExecution(startQueuedTurn);
    new TurnEndedRule(this, 'TurnEnds', {
      target: startQueuedTurn,
      description: 'Starts the next queued message of an AgentStep session when its turn ends.',
      ...(props.eventBus ? { eventBus: props.eventBus } : {}),
    });
    this.functions = { ...functions, ...workflowFunctions, 'start-queued-turn': startQueuedTurn };
    this.tracesFunction =
      props.traces === undefined
        ? undefined
        : new TraceExport(this, 'Traces', {
            table: this.table,
            traces: props.traces,
            agentName: agentName ?? UNNAMED_AGENT,
            ...(props.eventBus ? { eventBus: props.eventBus } : {}),
          }).function;
    this.operator = new TenantOperator(this, 'Operator', {
      table: this.table,
      stateMachine: this.stateMachine,
    }).function;
    const api =
      props.api === false
        ? undefined
        : new AgentStepApi(this, 'Api', {
            ...props.api,
            table: this.table,
            stateMachine: this.stateMachine,
            liveArn: this.live.arn,
            workflowStateMachine: this.workflowStateMachine,
            toolsEnvironment: { ...tools, ...ceilingEnv },
            ...(agentFile ? { agentFile } : {}),
            agent: { name: agentName ?? UNNAMED_AGENT, version: this.version },
            removalPolicy,
          });
    this.api = api?.api;
    this.apiFunctions = api?.functions ?? {};
    this.console = api?.console;
  }

  /**
   * The encrypted queue holding events whose turns a rule or schedule could not start, for
   * triggers given no `deadLetterQueue`; created with the first of them.
   */
  get triggerDeadLetterQueue(): Queue | undefined {
    return this.#triggerDeadLetters;
  }

  /**
   * Starts a turn for each event `rule` matches: the state machine's `live` alias becomes the rule's
   * target, its input built from the event by an input transformer (`requestId` = the event's id).
   */
  runOnEvent(rule: Rule, options: EventTurnOptions): void {
    this.#addTurnTarget(rule, options, 'runOnEvent');
  }

  /** Starts a turn on `schedule`, from a rule this creates and returns (see {@link runOnEvent}). */
  runOnSchedule(schedule: Schedule, options: EventTurnOptions): Rule {
    this.#schedules += 1;
    const rule = new Rule(this, `Schedule${this.#schedules}`, {
      schedule,
      description: 'Starts an AgentStep turn on a schedule.',
    });
    this.#addTurnTarget(rule, options, 'runOnSchedule');
    return rule;
  }

  /** Starts a turn for each message of `queue`, through an EventBridge pipe (see {@link QueueTurnPipe}). */
  runOnQueue(queue: IQueue, options: QueueTurnOptions = {}): QueueTurnPipe {
    return new QueueTurnPipe(this, `QueueTurns${Names.nodeUniqueId(queue.node)}`, {
      ...options,
      queue,
      stateMachine: this.stateMachine,
      liveArn: this.live.arn,
    });
  }

  /**
   * Lets `grantee` start turns: `states:StartExecution` on the loop (Step Functions authorizes a start
   * through `live.arn` on the state machine's own ARN), with the execution contract's input.
   */
  grantStartTurn(grantee: IGrantable): Grant {
    return this.stateMachine.grants.startExecution(grantee);
  }

  /**
   * Lets `grantee` run operators' commands (`lambda:InvokeFunction` on {@link operator}): suspend
   * and resume tenants, set their ceilings. Give it to operators' roles, never to a tenant's.
   */
  grantOperate(grantee: IGrantable): Grant {
    return this.operator.grantInvoke(grantee);
  }

  /** Lets `grantee` read sessions' logs and heads (`dynamodb:GetItem` and `Query` on the table), nothing more. */
  grantReadSessions(grantee: IGrantable): Grant {
    return grantSessionReads(this.table, grantee);
  }

  #sharedDeadLetters(): Queue {
    this.#triggerDeadLetters ??= triggerDeadLetterQueue(this, 'TriggerDeadLetters', this.#removalPolicy);
    return this.#triggerDeadLetters;
  }

  #addTurnTarget(rule: Rule, options: EventTurnOptions, method: string): void {
    const deadLetterQueue = options.deadLetterQueue ?? this.#sharedDeadLetters();
    rule.addTarget(
      eventTurnTarget(
        { stateMachine: this.stateMachine, liveArn: this.live.arn },
        options,
        deadLetterQueue,
        method,
      ),
    );
  }
}

/** The steps that run the agent's own tools, describe them to its model or call its providers. */
const AGENT_STEPS: ReadonlySet<StepName | DeployedStepName> = new Set([
  'invoke-tool',
  'model-step',
  'advance-turn',
]);

/**
 * A cost budget for a model without a price could never be spent: fail synthesis, not the turn.
 * `models`: the model, every profile's and the summary model.
 */
function refuseUnpricedCostBudget(props: AgentStepProps, models: readonly string[]): void {
  const prices = { ...DEFAULT_PRICES, ...props.prices };
  const { budget } = props;
  const model = budget && models.find((candidate) => costBudgetUnpriced(budget, prices, candidate));
  if (model !== undefined) {
    throw new Error(
      `AgentStep prop budget.maxCostUsd needs a price for ${model}: add one to prices, e.g. {"${model}": {"input": 3, "output": 15}} (USD per million tokens).`,
    );
  }
}

/**
 * What the scripted model answers every turn when it is given no script: a deploy of the construct's
 * defaults runs, and says what to change.
 */
const UNSCRIPTED_ANSWER =
  'This agent runs the scripted model, which plays a script of model steps, and was given none: give AgentStep a model (model: "bedrock:<modelId>", "anthropic:<model>", …) or a modelScript.';

/** The model functions' script variable: the given script, the unscripted answer for the scripted model, else none. */
function modelScriptEnv(model: string, script: string | undefined): Record<string, string> {
  const played = script ?? (model === SCRIPTED_MODEL ? JSON.stringify([UNSCRIPTED_ANSWER]) : undefined);
  return played === undefined ? {} : { [ENV_NAMES.modelScript]: played };
}

/** The model functions' profiles variable, when there are profiles. */
function modelProfilesEnv(profiles: Readonly<Record<string, string>>): Record<string, string> {
  if (Object.keys(profiles).length === 0) return {};
  return { [ENV_NAMES.modelProfiles]: JSON.stringify(profiles) };
}

function limitsEnv(props: AgentStepProps): Record<string, string> {
  return {
    ...(props.budget
      ? { [ENV_NAMES.budget]: JSON.stringify(checked(budgetSchema, props.budget, 'budget')) }
      : {}),
    ...(props.maxSteps ? { [ENV_NAMES.maxSteps]: String(props.maxSteps) } : {}),
    ...(props.stepsPerExecution ? { [ENV_NAMES.stepsPerExecution]: String(props.stepsPerExecution) } : {}),
    ...(props.repeatedCalls ? { [ENV_NAMES.repeatedCalls]: String(props.repeatedCalls) } : {}),
    ...(props.stepsWithoutProgress
      ? { [ENV_NAMES.stepsWithoutProgress]: String(props.stepsWithoutProgress) }
      : {}),
  };
}

/** The sessions' workspace files: private, encrypted, TLS only. */
function workspaceBucket(scope: Construct, removalPolicy: RemovalPolicy): Bucket {
  return privateBucket(scope, 'Workspace', { versioned: true, removalPolicy });
}

/** The key prefix `S3Workspace` keeps every session's files under. */
const WORKSPACE_PREFIX = 'sessions/';

/** Exactly what the workspace tools do: get and put objects, list keys, under the sessions prefix. */
function grantWorkspace(bucket: Bucket, fn: IFunction): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['s3:GetObject', 's3:PutObject'],
      resources: [bucket.arnForObjects(`${WORKSPACE_PREFIX}*`)],
    }),
  );
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['s3:ListBucket'],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': [`${WORKSPACE_PREFIX}*`] } },
    }),
  );
}

/** The Lambda tools as the tools function reads them (`AGENTSTEP_LAMBDA_TOOLS`). */
function lambdaToolsEnv(scope: Construct, tools: readonly LambdaToolProps[]): string {
  const specs = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    functionName: tool.function.functionName,
    ...(tool.sequential ? { sequential: true } : {}),
    ...(tool.timeout ? { timeoutMs: tool.timeout.toMilliseconds() } : {}),
    ...(tool.approval ? { approval: true } : {}),
    ...(tool.idempotent ? { idempotent: true } : {}),
    ...(tool.passIdempotencyKey ? { passIdempotencyKey: true } : {}),
  }));
  return Stack.of(scope).toJsonString(specs);
}
