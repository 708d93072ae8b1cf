/**
 * The environment variables the construct gives each Lambda and the Lambda reads at start-up: the
 * deployment's contract between `infra/` and `functions/`, named once.
 */
export const ENV_NAMES = {
  /** The event-log table (every function). */
  table: 'AGENTSTEP_TABLE',
  /** Which step a function runs, so the local engine can route tasks to the same handler. */
  step: 'AGENTSTEP_STEP',
  /** Built-in toolsets, comma-separated. */
  toolsets: 'AGENTSTEP_TOOLSETS',
  /** Hosts `http_fetch` may fetch, comma-separated. */
  httpAllowHosts: 'AGENTSTEP_HTTP_ALLOW_HOSTS',
  /** Lambda tools, as JSON. */
  lambdaTools: 'AGENTSTEP_LAMBDA_TOOLS',
  /** The bucket of the workspace toolset. */
  workspaceBucket: 'AGENTSTEP_WORKSPACE_BUCKET',
  /** The function that runs the calls. */
  toolsFunction: 'AGENTSTEP_TOOLS_FUNCTION',
  /** The model, as `--model` names it. */
  model: 'AGENTSTEP_MODEL',
  /** The scripted model's script, as JSON. */
  modelScript: 'AGENTSTEP_MODEL_SCRIPT',
  /** The provider's base URL. */
  modelBaseUrl: 'AGENTSTEP_MODEL_BASE_URL',
  /** Named model profiles (`REQUIRES "name"`), as JSON: name → model, as `--model` names it. */
  modelProfiles: 'AGENTSTEP_MODEL_PROFILES',
  /** The secret holding the provider's API key. */
  modelApiKeySecret: 'AGENTSTEP_MODEL_API_KEY_SECRET',
  /** The agent's own instructions. */
  instructions: 'AGENTSTEP_INSTRUCTIONS',
  /** How model steps keep the context within the window (`contextSettingsSchema`), as JSON. */
  context: 'AGENTSTEP_CONTEXT',
  /** Calls of one batch that may run at once. */
  maxConcurrency: 'AGENTSTEP_MAX_CONCURRENCY',
  /** Prices merged over the built-in table, as JSON. */
  prices: 'AGENTSTEP_PRICES',
  /** The deployment's default budget, as JSON. */
  budget: 'AGENTSTEP_BUDGET',
  /** What every tenant may spend on models, as JSON `{"usdPerDay"?, "usdPerMonth"?}` (decision 0043). */
  tenantCeiling: 'AGENTSTEP_TENANT_CEILING',
  /** The agent's version (`agentVersion`) the deployment runs, recorded by each turn's `turn_start`. */
  agentVersion: 'AGENTSTEP_AGENT_VERSION',
  /** Tools whose calls wait for a person's approval, comma-separated; `*` for every tool. */
  approvals: 'AGENTSTEP_APPROVALS',
  /** Seconds a call waits for a decision before it fails with `approval timed out`. */
  approvalTimeout: 'AGENTSTEP_APPROVAL_TIMEOUT_SECONDS',
  /** Model steps one turn may take. */
  maxSteps: 'AGENTSTEP_MAX_STEPS',
  /** Model steps per execution before the turn continues in a fresh one. */
  stepsPerExecution: 'AGENTSTEP_STEPS_PER_EXECUTION',
  /** Calls of one tool with the same arguments that stop a turn (`RepeatedCall`). */
  repeatedCalls: 'AGENTSTEP_REPEATED_CALLS',
  /** Model steps in a row without a successful call that stop a turn (`NoProgress`). */
  stepsWithoutProgress: 'AGENTSTEP_STEPS_WITHOUT_PROGRESS',
  /** The event bus turns' ends are announced on (CloseStoppedTurn's); the default bus when unset. */
  eventBus: 'AGENTSTEP_EVENT_BUS',
  /** The loop's state machine, which the API function starts and stops executions of. */
  stateMachine: 'AGENTSTEP_STATE_MACHINE',
  /** The workflow state machine the API starts workflow runs on. */
  workflowStateMachine: 'AGENTSTEP_WORKFLOW_STATE_MACHINE',
  /** How the API's callers are authorized, and so where their tenant comes from: `jwt` or `iam`. */
  apiAuth: 'AGENTSTEP_API_AUTH',
  /** The OIDC issuer whose tokens the API's JWT authorizer accepts. */
  jwtIssuer: 'AGENTSTEP_JWT_ISSUER',
  /** The audience those tokens must name. */
  jwtAudience: 'AGENTSTEP_JWT_AUDIENCE',
  /** The origins whose web pages may call the API (CORS), comma-separated; unset: none. */
  corsOrigins: 'AGENTSTEP_CORS_ORIGINS',
  /**
   * Where the export-traces function sends each ended turn's spans (decision 0047): an OTLP/HTTP
   * collector's address (`/v1/traces` is added), or {@link TRACES_TO_CLOUDWATCH}.
   */
  tracesEndpoint: 'AGENTSTEP_TRACES_ENDPOINT',
  /** The secret holding the collector's headers, as a JSON object of header name → value. */
  tracesHeadersSecret: 'AGENTSTEP_TRACES_HEADERS_SECRET',
  /** `true`: prompts, answers, arguments and results go into the spans. */
  tracesCaptureContent: 'AGENTSTEP_TRACES_CAPTURE_CONTENT',
  /** The agent's name, as traces name it (`gen_ai.agent.name`). */
  agentName: 'AGENTSTEP_AGENT_NAME',
} as const;

/**
 * The traces endpoint that means CloudWatch's OTLP traces endpoint in the function's own region
 * (`https://xray.<region>.amazonaws.com/v1/traces`), signed with SigV4.
 */
export const TRACES_TO_CLOUDWATCH = 'cloudwatch';

/** The agent's name in traces (`gen_ai.agent.name`) when no agent file names it. */
export const UNNAMED_AGENT = 'agentstep';

/** The values of `AGENTSTEP_API_AUTH`: a JWT authorizer (the tenant is the token's `sub`) or IAM. */
export const API_AUTH_MODES = ['jwt', 'iam'] as const;

/** How the deployed API authorizes its callers. */
export type ApiAuthMode = (typeof API_AUTH_MODES)[number];
