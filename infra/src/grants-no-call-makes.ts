/**
 * The grants the construct gives that no AWS call of AgentStep's own code makes, each with why: the
 * services use them with the role (logs, traces), or they allow what a deploy cannot exercise at
 * once (a version a running execution still names). An audit of least privilege, and the deploy
 * layer's IAM coverage test (docs/decisions/0045-iam-coverage.md), tell them from grants nothing needs.
 */
export const GRANTS_NO_CALL_MAKES: ReadonlyArray<{
  readonly actions: readonly string[];
  readonly reason: string;
}> = [
  {
    actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
    reason:
      "Lambda writes each function's logs to its own log group with the function's role (functionRole).",
  },
  {
    actions: [
      'xray:PutTraceSegments',
      'xray:PutTelemetryRecords',
      'xray:GetSamplingRules',
      'xray:GetSamplingTargets',
    ],
    reason:
      "Active tracing: Lambda and Step Functions send the trace segments with the role. The traces function's own xray:PutTraceSegments (traces: 'cloudwatch', for CloudWatch's OTLP endpoint) overlaps it, so neither alone is needed while tracing is active; its own keeps the export working without it.",
  },
  {
    actions: [
      'logs:CreateLogDelivery',
      'logs:GetLogDelivery',
      'logs:UpdateLogDelivery',
      'logs:DeleteLogDelivery',
      'logs:ListLogDeliveries',
      'logs:PutResourcePolicy',
      'logs:DescribeResourcePolicies',
      'logs:DescribeLogGroups',
    ],
    reason: "Step Functions delivers the state machines' execution logs to their log groups with the role.",
  },
  {
    actions: ['lambda:InvokeFunction'],
    reason:
      'A state machine invokes the versions its revision names: CDK grants each task the current one, grantInvokeVersions every one (`:*`) for executions still running on an earlier revision (decision 0042); either alone allows the current version.',
  },
];
