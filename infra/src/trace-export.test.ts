import { fileURLToPath } from 'node:url';
import { Fn, type Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { describe, expect, it } from 'vitest';
import type { AgentStep, AgentStepProps } from './agent-step.js';
import { roleStatements } from './testing/role-statements.js';
import { defaultAgent, environmentOf, logicalId, synthAgent } from './testing/synth-agent.js';

const HEADERS = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:otlp/headers-AbCdEf';
const COUNTER = fileURLToPath(new URL('testing/counter-agent/agent.ts', import.meta.url));

/** An agent exporting its traces to a collector whose headers a secret holds, content captured. */
const toCollector = synthAgent((stack) => ({
  traces: {
    otlpEndpoint: 'https://otlp.example.com/',
    headers: Secret.fromSecretCompleteArn(stack, 'Headers', HEADERS),
    captureContent: true,
  },
}));
/** An agent exporting its traces to CloudWatch, announcing on its own bus. */
const toCloudWatch = synthAgent((stack) => ({
  traces: 'cloudwatch',
  eventBus: EventBus.fromEventBusName(stack, 'Bus', 'jobs'),
}));

/** The export function of a synthesized agent, which has `traces`. */
function exporter(agent: AgentStep) {
  if (agent.tracesFunction === undefined) throw new Error('The agent deploys no traces function.');
  return agent.tracesFunction;
}

/** The rules sending turn ends to the export function. */
function exportRules(template: Template, agent: AgentStep) {
  return Object.values(
    template.findResources('AWS::Events::Rule', {
      Properties: { Targets: [{ Arn: { 'Fn::GetAtt': [logicalId(exporter(agent)), 'Arn'] } }] },
    }),
  );
}

/** Synthesizing an agent with `traces` (bundling skipped): what a prop refused at synthesis throws. */
function synthesizing(traces: unknown): () => void {
  return () => synthAgent({ traces } as AgentStepProps);
}

describe('TraceExport (synthesized)', () => {
  it('deploys functions/export-traces on Node.js 22 with the table, the collector, its headers secret, the agent’s name and content capture', () => {
    const { agent, template } = toCollector;
    const fn = template.toJSON().Resources[logicalId(exporter(agent))];
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
    });
    expect(environmentOf(template, exporter(agent))).toEqual({
      AGENTSTEP_TABLE: { Ref: logicalId(agent.table) },
      AGENTSTEP_TRACES_ENDPOINT: 'https://otlp.example.com',
      AGENTSTEP_TRACES_HEADERS_SECRET: HEADERS,
      AGENTSTEP_TRACES_CAPTURE_CONTENT: 'true',
      AGENTSTEP_AGENT_NAME: 'agentstep',
      POWERTOOLS_SERVICE_NAME: 'agentstep',
    });
  });

  it("names CloudWatch in the environment for 'cloudwatch', and the agent file's agent when there is one", () => {
    const { agent, template } = toCloudWatch;
    expect(environmentOf(template, exporter(agent))).toEqual({
      AGENTSTEP_TABLE: { Ref: logicalId(agent.table) },
      AGENTSTEP_TRACES_ENDPOINT: 'cloudwatch',
      AGENTSTEP_AGENT_NAME: 'agentstep',
      POWERTOOLS_SERVICE_NAME: 'agentstep',
    });
    const named = synthAgent({ agent: COUNTER, traces: 'cloudwatch', api: false });
    expect(environmentOf(named.template, exporter(named.agent)).AGENTSTEP_AGENT_NAME).toBe('counter');
  });

  it("sends every turn end announced on the agent's bus to the function, retried for 2 hours", () => {
    for (const [{ agent, template }, bus] of [
      [toCollector, undefined],
      [toCloudWatch, 'jobs'],
    ] as const) {
      const rules = exportRules(template, agent);
      expect(rules).toHaveLength(1);
      expect(rules[0]?.Properties).toEqual({
        Description: 'Exports the traces of each AgentStep turn when it ends.',
        State: 'ENABLED',
        ...(bus ? { EventBusName: bus } : {}),
        EventPattern: { source: ['agentstep'], 'detail-type': ['Agent Turn Completed', 'Agent Turn Failed'] },
        Targets: [
          {
            Id: 'Target0',
            Arn: { 'Fn::GetAtt': [logicalId(exporter(agent)), 'Arn'] },
            RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
          },
        ],
      });
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [logicalId(exporter(agent)), 'Arn'] },
      });
    }
  });

  it('lets the function read the table and its headers secret: nothing more', () => {
    const { agent, template } = toCollector;
    expect(roleStatements(template, exporter(agent))).toEqual([
      ...ownLogsAndTraces(),
      {
        Action: ['dynamodb:GetItem', 'dynamodb:Query'],
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [logicalId(agent.table), 'Arn'] },
      },
      {
        Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        Effect: 'Allow',
        Resource: HEADERS,
      },
    ]);
  });

  it("lets the function send to CloudWatch's OTLP endpoint with 'cloudwatch' (xray:PutTraceSegments), and read the table: nothing more", () => {
    const { agent, template } = toCloudWatch;
    expect(roleStatements(template, exporter(agent))).toEqual([
      ...ownLogsAndTraces(),
      {
        Action: ['dynamodb:GetItem', 'dynamodb:Query'],
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [logicalId(agent.table), 'Arn'] },
      },
      { Action: 'xray:PutTraceSegments', Effect: 'Allow', Resource: '*' },
    ]);
  });

  it('leaves the loop as it is: the same state machine, the same agent version, no export function without traces', () => {
    const { agent, stack } = defaultAgent();
    expect(agent.tracesFunction).toBeUndefined();
    const definition = (synthesized: { agent: AgentStep; stack: Stack }) =>
      JSON.stringify(
        synthesized.stack.resolve(
          (synthesized.agent.stateMachine.node.defaultChild as CfnStateMachine).definitionString,
        ),
      );
    expect(definition(toCollector)).toBe(definition({ agent, stack }));
    expect(toCollector.agent.version).toBe(agent.version);
  });

  it.each([
    ['http://otlp.example.com', /must be https:\/\/ \(http:\/\/ only on localhost/],
    ['otlp.example.com:4318', /is no URL|must be https/],
    [
      'https://otlp.example.com/v1/traces',
      /names the traces path itself: give the collector's address without/,
    ],
    ['https://ann:secret@otlp.example.com', /holds credentials, .* put them in the headers secret/],
  ])('refuses the collector address %s at synthesis, saying what to give', (otlpEndpoint, message) => {
    expect(synthesizing({ otlpEndpoint })).toThrow(message);
  });

  it("refuses traces that are neither 'cloudwatch' nor a collector", () => {
    expect(synthesizing('xray')).toThrow(
      `AgentStep prop traces must be 'cloudwatch' or { otlpEndpoint, headers?, captureContent? }, received "xray".`,
    );
  });

  it('takes a collector on localhost over plain HTTP (a Lambda extension’s), and an address known only at deploy', () => {
    const local = synthAgent({ api: false, traces: { otlpEndpoint: 'http://localhost:4318' } });
    expect(environmentOf(local.template, exporter(local.agent)).AGENTSTEP_TRACES_ENDPOINT).toBe(
      'http://localhost:4318',
    );
    const later = synthAgent({ api: false, traces: { otlpEndpoint: Fn.importValue('CollectorUrl') } });
    expect(environmentOf(later.template, exporter(later.agent)).AGENTSTEP_TRACES_ENDPOINT).toEqual({
      'Fn::ImportValue': 'CollectorUrl',
    });
  });
});

/** What every AgentStep function's role holds: writing its own log group, and active tracing's X-Ray segments. */
function ownLogsAndTraces() {
  return [
    expect.objectContaining({ Action: ['logs:CreateLogStream', 'logs:PutLogEvents'] }),
    {
      Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
      Effect: 'Allow',
      Resource: '*',
    },
  ];
}
