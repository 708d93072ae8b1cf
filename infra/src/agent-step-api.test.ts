import { Match } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { actionsOf, LOOP_TABLE_ACTIONS, roleStatements } from './testing/role-statements.js';
import { defaultAgent, environmentOf, liveId, logicalId, synthAgent } from './testing/synth-agent.js';

const jwt = { issuer: 'https://issuer.example.com/', audience: 'agentstep-api' };

describe('AgentStep’s HTTP API (synthesized)', () => {
  it('serves every path and method from one regional REST API, streaming from the API function for up to 15 minutes', () => {
    const { agent, template } = defaultAgent();
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    template.resourceCountIs('AWS::ApiGateway::Resource', 1);
    template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: '{proxy+}' });
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method'));
    expect(methods).toHaveLength(2);
    const api = logicalId(agent.apiFunctions.api);
    for (const { Properties } of methods) {
      expect(Properties).toMatchObject({
        HttpMethod: 'ANY',
        RequestValidatorId: expect.anything(),
        Integration: { Type: 'AWS_PROXY', ResponseTransferMode: 'STREAM', TimeoutInMillis: 900_000 },
      });
      // Streaming calls InvokeWithResponseStream, under its own path.
      const uri = JSON.stringify(Properties.Integration.Uri);
      expect(uri).toContain('/response-streaming-invocations');
      expect(uri).toContain(api);
    }
    template.hasResourceProperties('AWS::ApiGateway::RequestValidator', {
      ValidateRequestBody: true,
      ValidateRequestParameters: true,
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Timeout: 15 * 60,
      Environment: { Variables: Match.objectLike({ AGENTSTEP_API_AUTH: 'iam' }) },
    });
    // The API function is no step: the local engine routes no task to it.
    expect(JSON.stringify(template.toJSON().Resources[api].Properties.Environment)).not.toContain(
      'AGENTSTEP_STEP',
    );
  });

  it('serves the A2A routes (the agent card, JSON-RPC, HTTP+JSON) through the same proxy, its card naming the agent and its version', () => {
    const { agent, template } = defaultAgent();
    // No route of its own: /.well-known/agent-card.json, /a2a and /a2a/rest/… are {proxy+}'s, authorized alike.
    template.resourceCountIs('AWS::ApiGateway::Resource', 1);
    const environment = environmentOf(template, agent.apiFunctions.api);
    expect(environment).toMatchObject({
      AGENTSTEP_AGENT_NAME: expect.any(String),
      AGENTSTEP_AGENT_VERSION: agent.version,
    });
    expect(environment).not.toHaveProperty('AGENTSTEP_JWT_ISSUER');
  });

  it('authorizes every method with AWS_IAM by default, with no authorizer function', () => {
    const { agent, template } = defaultAgent();
    for (const { Properties } of Object.values(template.findResources('AWS::ApiGateway::Method')))
      expect(Properties.AuthorizationType).toBe('AWS_IAM');
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 0);
    expect(Object.keys(agent.apiFunctions)).toEqual(['api']);
  });

  it('authorizes every method with the JWT authorizer, whose function gets the issuer and audience', () => {
    const { agent, template } = synthAgent({ api: { auth: { jwt } } });
    const authorizerFunction = agent.apiFunctions['api-authorizer'] as IFunction;
    const [authorizer] = Object.keys(template.findResources('AWS::ApiGateway::Authorizer'));
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'TOKEN',
      IdentitySource: 'method.request.header.Authorization',
    });
    const uri = JSON.stringify(template.toJSON().Resources[authorizer ?? ''].Properties.AuthorizerUri);
    expect(uri).toContain(logicalId(authorizerFunction));
    for (const { Properties } of Object.values(template.findResources('AWS::ApiGateway::Method')))
      expect(Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizer } });
    expect(environmentOf(template, authorizerFunction)).toEqual({
      AGENTSTEP_JWT_ISSUER: jwt.issuer,
      AGENTSTEP_JWT_AUDIENCE: jwt.audience,
      POWERTOOLS_SERVICE_NAME: 'agentstep',
    });
    // The A2A agent card names the issuer whose JWTs callers send (OpenID Connect).
    expect(environmentOf(template, agent.apiFunctions.api)).toMatchObject({
      AGENTSTEP_API_AUTH: 'jwt',
      AGENTSTEP_JWT_ISSUER: jwt.issuer,
    });
    // The authorizer only checks tokens: it may touch neither the table nor the state machine.
    expect(JSON.stringify(roleStatements(template, authorizerFunction))).not.toMatch(/dynamodb:|states:/);
  });

  it('gives the API function the table, the loop (through its live alias) and the workflows to start, the loop’s executions to list and stop, and both machines’ task results to send; nothing more', () => {
    const { agent, template } = defaultAgent();
    const api = agent.apiFunctions.api as IFunction;
    const machine = logicalId(agent.stateMachine);
    const workflows = logicalId(agent.workflowStateMachine);
    expect(environmentOf(template, api)).toMatchObject({
      AGENTSTEP_TABLE: { Ref: logicalId(agent.table) },
      AGENTSTEP_STATE_MACHINE: { Ref: liveId(agent) },
      AGENTSTEP_WORKFLOW_STATE_MACHINE: { Ref: workflows },
    });
    const statements = roleStatements(template, api);
    expect(actionsOf(statements, 'dynamodb:')).toEqual([...LOOP_TABLE_ACTIONS, 'dynamodb:DeleteItem'].sort());
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: 'states:StartExecution', Resource: { Ref: machine } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: 'states:StartExecution', Resource: { Ref: workflows } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: 'states:ListExecutions', Resource: { Ref: machine } }),
    );
    const stop = statements.find((statement) => statement.Action === 'states:StopExecution');
    expect(JSON.stringify(stop?.Resource)).toContain(':execution:');
    // Each machine's task results: its own statement, on that machine.
    expect(actionsOf(statements, 'states:')).toEqual([
      'states:ListExecutions',
      'states:SendTaskFailure',
      'states:SendTaskFailure',
      'states:SendTaskHeartbeat',
      'states:SendTaskHeartbeat',
      'states:SendTaskSuccess',
      'states:SendTaskSuccess',
      'states:StartExecution',
      'states:StartExecution',
      'states:StopExecution',
    ]);
    // The API may invoke only its own function, through one API-scoped permission.
    template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [logicalId(api), 'Arn'] },
      Principal: 'apigateway.amazonaws.com',
    });
  });

  it('logs access, traces and throttles the stage, and answers its own refusals in the API’s error shape', () => {
    const { template } = synthAgent({ api: { throttle: { rateLimit: 10, burstLimit: 20 } } });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: [
        Match.objectLike({ LoggingLevel: 'ERROR', ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 }),
      ],
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"error":\\{"code":"Unauthorized"') },
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '401',
    });
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
    const { template: withoutRole } = synthAgent({ api: { cloudWatchRole: false } });
    withoutRole.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  it('answers CORS preflights of the listed origins without authorization, and names the one origin on its own refusals', () => {
    const app = 'https://app.example.com';
    const { agent, template } = synthAgent({ api: { auth: { jwt }, cors: { allowOrigins: [app] } } });
    const preflights = Object.values(template.findResources('AWS::ApiGateway::Method')).filter(
      ({ Properties }) => Properties.HttpMethod === 'OPTIONS',
    );
    expect(preflights).toHaveLength(2);
    for (const { Properties } of preflights) {
      expect(Properties.AuthorizationType).toBe('NONE');
      expect(Properties.AuthorizerId).toBeUndefined();
      expect(Properties.Integration).toMatchObject({
        Type: 'MOCK',
        IntegrationResponses: [
          {
            StatusCode: '204',
            ResponseParameters: {
              'method.response.header.Access-Control-Allow-Origin': `'${app}'`,
              'method.response.header.Access-Control-Allow-Methods': "'GET,POST,DELETE'",
              'method.response.header.Access-Control-Allow-Headers':
                "'Authorization,Content-Type,Last-Event-ID,Idempotency-Key,Mcp-Protocol-Version,Mcp-Session-Id,A2A-Version,A2A-Extensions'",
              'method.response.header.Access-Control-Max-Age': "'600'",
              'method.response.header.Vary': "'Origin'",
            },
          },
        ],
      });
    }
    // Every other method stays behind the authorizer.
    for (const { Properties } of Object.values(template.findResources('AWS::ApiGateway::Method')))
      if (Properties.HttpMethod !== 'OPTIONS') expect(Properties.AuthorizationType).toBe('CUSTOM');
    const responses = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse'));
    expect(responses.map(({ Properties }) => Properties.ResponseType).sort()).toEqual([
      'ACCESS_DENIED',
      'DEFAULT_4XX',
      'DEFAULT_5XX',
      'MISSING_AUTHENTICATION_TOKEN',
      'THROTTLED',
      'UNAUTHORIZED',
    ]);
    for (const { Properties } of responses)
      expect(Properties.ResponseParameters).toEqual({
        'gatewayresponse.header.Access-Control-Allow-Origin': `'${app}'`,
        'gatewayresponse.header.Vary': "'Origin'",
      });
    // The function answers the routes' requests itself, for the same origins.
    expect(environmentOf(template, agent.apiFunctions.api)).toMatchObject({ AGENTSTEP_CORS_ORIGINS: app });
  });

  it('lets each of several origins through a preflight, adds no CORS header without the option, and refuses what is no origin', () => {
    const origins = ['https://app.example.com', 'http://localhost:5173'];
    const { template } = synthAgent({ api: { cors: { allowOrigins: origins } } });
    const preflight = Object.values(template.findResources('AWS::ApiGateway::Method')).find(
      ({ Properties }) => Properties.HttpMethod === 'OPTIONS',
    );
    // The first origin by default; the template names the request's own when it is another listed one.
    const [response] = preflight?.Properties.Integration.IntegrationResponses ?? [];
    expect(response.ResponseTemplates['application/json']).toContain('$origin == "http://localhost:5173"');
    // A gateway response cannot choose among several origins: it names none.
    for (const { Properties } of Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')))
      expect(Properties.ResponseParameters).toBeUndefined();

    const { agent, template: without } = defaultAgent();
    expect(JSON.stringify(without.toJSON())).not.toContain('Access-Control');
    expect(environmentOf(without, agent.apiFunctions.api)).not.toHaveProperty('AGENTSTEP_CORS_ORIGINS');
    for (const wrong of [['*'], ['https://app.example.com/'], ['app.example.com'], []])
      expect(() => synthAgent({ api: { cors: { allowOrigins: wrong } } })).toThrow(
        'AgentStep api.cors.allowOrigins takes one or more origins as a browser sends them',
      );
  });

  it('creates no API, and no API function, with api: false', () => {
    const { agent, template } = synthAgent({ api: false });
    template.resourceCountIs('AWS::ApiGateway::RestApi', 0);
    template.resourceCountIs('AWS::Lambda::Function', 16);
    expect(agent.api).toBeUndefined();
    expect(agent.apiFunctions).toEqual({});
  });
});
