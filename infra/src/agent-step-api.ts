import {
  type ApiAuthMode,
  CORS_ALLOW_HEADERS,
  CORS_ALLOW_METHODS,
  corsOriginProblem,
  ENV_NAMES,
} from '@agentstep/protocol';
import { Duration, Names, RemovalPolicy, Token } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  type CorsOptions,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  type MethodOptions,
  ResponseTransferMode,
  ResponseType,
  RestApi,
  TokenAuthorizer,
} from 'aws-cdk-lib/aws-apigateway';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { AgentStepConsole } from './agent-step-console.js';
import { BundledLambda } from './bundled-lambda.js';
import { grantApiTableAccess } from './grant-table-access.js';

/**
 * Who may call the API, and so whose sessions a request reaches: the `sub` of a JWT from any OIDC
 * issuer (checked by a Lambda authorizer against the issuer's keys), or the IAM principal that
 * signed the request (SigV4).
 */
export type AgentStepApiAuth =
  | { readonly jwt: { readonly issuer: string; readonly audience: string } }
  | { readonly iam: true };

/** How the HTTP API is served; every option has a default. */
export interface AgentStepApiOptions {
  /** @default { iam: true } - only signed requests, each principal its own tenant */
  readonly auth?: AgentStepApiAuth;
  /** Requests per second across the stage, and the burst allowed above it. @default 50 and 100 */
  readonly throttle?: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * Sets API Gateway's CloudWatch Logs role, one per account and region, which its access and
   * execution logs need. Set `false` where the account already has one (a second stack setting it
   * only replaces it). @default true
   */
  readonly cloudWatchRole?: boolean;
  /**
   * The web console on S3 behind CloudFront, sharing its origin with the API ({@link AgentStepConsole}).
   * It signs in with the JWT issuer, so it needs `auth: { jwt }`. `clientId`: the console's client
   * at the issuer (default: the JWT audience); `scopes` (default `['openid']`). @default false
   */
  readonly console?: boolean | AgentStepConsoleOptions;
  /**
   * CORS, for web pages on other origins: exactly `allowOrigins` may call the API, each as a browser
   * sends it in `Origin` (`https://app.example.com`, `http://localhost:5173`: no path, no `*`). Their
   * preflights (`OPTIONS`) pass without authorization. API Gateway's own refusals (401, 403, 429 and
   * other 4XX/5XX it answers itself) carry CORS headers only when exactly one origin is listed; with
   * several, a page sees them as a network error without their status. @default - none: no CORS headers
   */
  readonly cors?: { readonly allowOrigins: readonly string[] };
}

/** The console's client at the API's OIDC issuer. */
export interface AgentStepConsoleOptions {
  /** @default - the JWT audience, the client id when the IdP issues its ID tokens to the console */
  readonly clientId?: string;
  /** @default ['openid'] */
  readonly scopes?: readonly string[];
}

/** Props of {@link AgentStepApi}. */
export interface AgentStepApiProps extends AgentStepApiOptions {
  readonly table: TableV2;
  readonly stateMachine: StateMachine;
  /** The alias of `stateMachine` turns start through, its `live` one (decision 0042). */
  readonly liveArn: string;
  /** The state machine `POST /workflows` starts runs on. */
  readonly workflowStateMachine: StateMachine;
  /** The tools' environment (the table's included): decisions check edited arguments against them. */
  readonly toolsEnvironment: Readonly<Record<string, string>>;
  /** The agent file (absolute) whose own tools the API lists and checks. @default - none */
  readonly agentFile?: string;
  /** The agent's name and version, as its A2A agent card says them. */
  readonly agent: { readonly name: string; readonly version: string };
  /**
   * What happens to its access log group and the console's buckets when the stack is deleted (API
   * Gateway's CloudWatch Logs role, `cloudWatchRole`, is the account's: always kept). @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** The HTTP API's functions, by folder under `functions/`: not steps, so no task ever runs them. */
export type ApiFunctionName = 'api' | 'api-authorizer';

/** API Gateway's response streaming lasts at most 15 minutes; the function streams 14 (decision 0016). */
const STREAM_TIMEOUT = Duration.minutes(15);

/**
 * What a preflight allows: the methods and request headers the routes use (with those the MCP SDK's
 * client sends to `/mcp`), for ten minutes.
 */
const PREFLIGHT: Omit<CorsOptions, 'allowOrigins'> = {
  allowMethods: [...CORS_ALLOW_METHODS],
  allowHeaders: [...CORS_ALLOW_HEADERS],
  maxAge: Duration.minutes(10),
};

/** How long an authorizer's verdict on one token is reused: within it, an expired token still passes. */
const AUTHORIZER_CACHE_TTL = Duration.minutes(5);

/**
 * The HTTP API deployed (decision 0016): a regional REST API whose every path and method (one
 * `{proxy+}` ANY and the root) is a Lambda proxy integration in STREAM mode to one function running
 * `createApi`, so `GET /stream` streams for up to 15 minutes. Every method is authorized (a JWT
 * authorizer or IAM) but the CORS preflights of the `cors` option; the stage is throttled, traced
 * and access-logged; API Gateway's own refusals share the API's error shape.
 */
export class AgentStepApi extends Construct {
  readonly api: RestApi;
  /** `api` runs the routes; `api-authorizer` checks JWTs, with `auth: { jwt }` only. */
  readonly functions: Readonly<Partial<Record<ApiFunctionName, LambdaFunction>>> & {
    readonly api: LambdaFunction;
  };
  /** The web console beside the API (`console` option), else `undefined`. */
  readonly console: AgentStepConsole | undefined;

  constructor(scope: Construct, id: string, props: AgentStepApiProps) {
    super(scope, id);
    const auth = props.auth ?? { iam: true };
    const mode: ApiAuthMode = 'jwt' in auth ? 'jwt' : 'iam';
    const corsOrigins = props.cors ? checkedCorsOrigins(props.cors.allowOrigins) : undefined;
    const handler = new BundledLambda(this, 'api', {
      folder: 'api' satisfies ApiFunctionName,
      ...(props.agentFile ? { agentFile: props.agentFile } : {}),
      timeout: STREAM_TIMEOUT,
      environment: {
        ...props.toolsEnvironment,
        [ENV_NAMES.table]: props.table.tableName,
        [ENV_NAMES.stateMachine]: props.liveArn,
        [ENV_NAMES.workflowStateMachine]: props.workflowStateMachine.stateMachineArn,
        [ENV_NAMES.apiAuth]: mode,
        ...(corsOrigins ? { [ENV_NAMES.corsOrigins]: corsOrigins.join(',') } : {}),
        // What the A2A agent card says: the agent, and the issuer of the JWTs callers send.
        [ENV_NAMES.agentName]: props.agent.name,
        [ENV_NAMES.agentVersion]: props.agent.version,
        ...('jwt' in auth ? { [ENV_NAMES.jwtIssuer]: auth.jwt.issuer } : {}),
      },
    }).function;
    grantApiTableAccess(props.table, handler);
    // Start a turn (authorized on the state machine's ARN, through its alias too); cancel one: find
    // its running executions by name, then stop them.
    props.stateMachine.grants.startExecution(handler);
    props.stateMachine.grants.actions(handler, 'states:ListExecutions');
    props.stateMachine.grants.execution(handler, 'states:StopExecution');
    // Wake a call waiting for approval: the only principal that may send this machine's task results.
    props.stateMachine.grantTaskResponse(handler);
    // Start a workflow run; wake a run waiting at a human gate.
    props.workflowStateMachine.grants.startExecution(handler);
    props.workflowStateMachine.grantTaskResponse(handler);

    const authorizer = 'jwt' in auth ? this.#jwtAuthorizer(auth.jwt) : undefined;
    const methodOptions: MethodOptions = authorizer
      ? { authorizer: authorizer.authorizer, authorizationType: AuthorizationType.CUSTOM }
      : { authorizationType: AuthorizationType.IAM };
    this.functions = { api: handler, ...(authorizer ? { 'api-authorizer': authorizer.function } : {}) };

    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_YEAR, removalPolicy });
    const cloudWatchRole = props.cloudWatchRole ?? true;
    this.api = new RestApi(this, 'Api', {
      restApiName: Names.uniqueResourceName(this, { maxLength: 128 }),
      description: 'AgentStep: sessions, turns and their event streams',
      // Streams idle out after 5 minutes on a regional endpoint, after 30 s on an edge-optimized one.
      endpointTypes: [EndpointType.REGIONAL],
      // Its CloudWatch Logs role is the account's and region's, which other APIs use: always kept.
      cloudWatchRole,
      deployOptions: {
        tracingEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: accessLogFormat(),
        throttlingRateLimit: props.throttle?.rateLimit ?? 50,
        throttlingBurstLimit: props.throttle?.burstLimit ?? 100,
      },
      defaultMethodOptions: methodOptions,
    });
    // Basic validation before the function runs (the proxy path is present); the routes validate
    // bodies and queries with their own schemas.
    const requestValidator = this.api.addRequestValidator('Validator', {
      validateRequestBody: true,
      validateRequestParameters: true,
    });
    const integration = new LambdaIntegration(handler, {
      responseTransferMode: ResponseTransferMode.STREAM,
      timeout: STREAM_TIMEOUT,
      // One permission for the whole API rather than two per method.
      scopePermissionToMethod: false,
    });
    this.api.root.addMethod('ANY', integration, { requestValidator });
    const proxy = this.api.root.addResource('{proxy+}');
    proxy.addMethod('ANY', integration, {
      requestValidator,
      requestParameters: { 'method.request.path.proxy': true },
    });
    // Browsers send preflights without credentials: API Gateway answers them itself, unauthorized
    // (cdk-nag's APIG4 and COG4 see such OPTIONS methods as CORS preflights, not findings).
    const preflight = corsOrigins && { ...PREFLIGHT, allowOrigins: [...corsOrigins] };
    if (preflight) for (const resource of [this.api.root, proxy]) resource.addCorsPreflight(preflight);
    this.#errorResponses(corsOrigins);
    this.console = props.console ? this.#console(auth, props.console, removalPolicy) : undefined;
  }

  /** The console, signing in with the API's JWT issuer; refused with IAM authorization. */
  #console(
    auth: AgentStepApiAuth,
    options: true | AgentStepConsoleOptions,
    removalPolicy: RemovalPolicy,
  ): AgentStepConsole {
    if (!('jwt' in auth))
      throw new Error(
        'AgentStep api.console needs api.auth.jwt: the console signs in with OpenID Connect, so give the API an OIDC issuer and audience (api.auth.jwt = { issuer, audience }) or leave the console out.',
      );
    const settings = options === true ? {} : options;
    return new AgentStepConsole(this, 'Console', {
      api: this.api,
      oidc: {
        ...auth.jwt,
        clientId: settings.clientId ?? auth.jwt.audience,
        scopes: settings.scopes ?? ['openid'],
      },
      removalPolicy,
    });
  }

  /** A TOKEN authorizer on a function that checks the Bearer JWT against the issuer's keys. */
  #jwtAuthorizer(jwt: { issuer: string; audience: string }) {
    const fn = new BundledLambda(this, 'api-authorizer', {
      folder: 'api-authorizer' satisfies ApiFunctionName,
      environment: { [ENV_NAMES.jwtIssuer]: jwt.issuer, [ENV_NAMES.jwtAudience]: jwt.audience },
      timeout: Duration.seconds(10),
    }).function;
    const authorizer = new TokenAuthorizer(this, 'JwtAuthorizer', {
      handler: fn,
      identitySource: IdentitySource.header('Authorization'),
      // Anything but a Bearer JWT is refused (401) without invoking the function.
      validationRegex: '^Bearer [-0-9A-Za-z_]+\\.[-0-9A-Za-z_]+\\.[-0-9A-Za-z_]+$',
      resultsCacheTtl: AUTHORIZER_CACHE_TTL,
    });
    return { function: fn, authorizer };
  }

  /**
   * API Gateway's own refusals in the API's shape, `{"error": {"code", "message"}}`; with one CORS
   * origin, naming it, so its pages can read them (a gateway response cannot pick among several).
   */
  #errorResponses(corsOrigins: readonly string[] | undefined): void {
    const body = (code: string) => `{"error":{"code":"${code}","message":$context.error.messageString}}`;
    const responses: Array<[string, ResponseType, string, string]> = [
      ['Unauthorized', ResponseType.UNAUTHORIZED, '401', 'Unauthorized'],
      // With IAM, an unsigned request is "missing an authentication token": a 401, as the API says.
      ['Unsigned', ResponseType.MISSING_AUTHENTICATION_TOKEN, '401', 'Unauthorized'],
      ['Denied', ResponseType.ACCESS_DENIED, '403', 'Forbidden'],
      ['Throttled', ResponseType.THROTTLED, '429', 'Throttled'],
      ['Default4xx', ResponseType.DEFAULT_4XX, '', '$context.error.responseType'],
      ['Default5xx', ResponseType.DEFAULT_5XX, '', '$context.error.responseType'],
    ];
    const [origin, ...more] = corsOrigins ?? [];
    const corsHeaders =
      origin !== undefined && more.length === 0
        ? { responseHeaders: { 'Access-Control-Allow-Origin': `'${origin}'`, Vary: "'Origin'" } }
        : {};
    for (const [id, type, statusCode, code] of responses) {
      this.api.addGatewayResponse(id, {
        type,
        ...(statusCode ? { statusCode } : {}),
        templates: { 'application/json': body(code) },
        ...corsHeaders,
      });
    }
  }
}

/**
 * `origins` if each is an origin as a browser sends it (`https://app.example.com`: http or https, a
 * host, an optional port, nothing else) or a token (`https://${distribution.domainName}`); else
 * fails the synth, naming the first that is not.
 */
function checkedCorsOrigins(origins: readonly string[]): readonly string[] {
  const wrong = origins.find(
    (origin) => !Token.isUnresolved(origin) && corsOriginProblem(origin) !== undefined,
  );
  if (origins.length === 0 || wrong !== undefined)
    throw new Error(
      `AgentStep api.cors.allowOrigins takes one or more origins as a browser sends them (https://app.example.com, http://localhost:5173: http or https, no path, no trailing slash, no "*"), received ${JSON.stringify(wrong ?? origins)}${wrong === undefined ? '' : `: ${corsOriginProblem(wrong)}`}.`,
    );
  return origins;
}

/** One JSON line per request: who (authorizer principal or IAM caller), what, and how it went. */
function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: AccessLogField.contextRequestId(),
      time: AccessLogField.contextRequestTime(),
      ip: AccessLogField.contextIdentitySourceIp(),
      principal: AccessLogField.contextAuthorizerPrincipalId(),
      caller: AccessLogField.contextIdentityUserArn(),
      method: AccessLogField.contextHttpMethod(),
      path: AccessLogField.contextPath(),
      status: AccessLogField.contextStatus(),
      responseLength: AccessLogField.contextResponseLength(),
      latencyMs: AccessLogField.contextResponseLatency(),
    }),
  );
}
