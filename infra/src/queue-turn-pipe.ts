import type { TurnRequest } from '@agentstep/protocol';
import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { parseMessageTemplate, wholeField } from './message-template.js';
import { fixedTurnFields, type TurnTriggerOptions } from './turn-trigger-options.js';

/** How a queue's messages start turns; every option has a default. */
export interface QueueTurnOptions extends Partial<TurnTriggerOptions> {
  /**
   * The user message, over the SQS record: `<$.body>` is the message body, `<$.body.key>` a field of
   * a JSON body. See {@link TurnTriggerOptions.message} for how placeholders are filled in.
   * @default '<$.body>' - the body itself, which must be text that is not JSON, or a JSON string
   */
  readonly message?: string;
}

/** Props of {@link QueueTurnPipe}. */
export interface QueueTurnPipeProps extends QueueTurnOptions {
  readonly queue: IQueue;
  readonly stateMachine: IStateMachine;
  /**
   * What the pipe starts: an alias of the state machine, its `live` one (decision 0042).
   * @default - the state machine itself (its latest revision)
   */
  readonly liveArn?: string;
}

/** The message a queue trigger sends when none is given: the body as it is. */
const WHOLE_BODY = '<$.body>';

/**
 * An EventBridge pipe from an SQS queue to the agent's state machine, with no glue Lambda: each
 * message (batch size 1) starts one execution (`FIRE_AND_FORGET`) whose input the pipe's template
 * builds, with the SQS message id as `requestId`, so a message received twice starts one turn. A
 * message whose execution could not be started returns to the queue, and to the queue's own
 * dead-letter queue after its `maxReceiveCount`.
 */
export class QueueTurnPipe extends Construct {
  readonly pipe: CfnPipe;
  /**
   * The role the pipe runs as: it may consume this queue (and decrypt with its KMS key, when it has
   * one) and start this state machine, nothing else.
   */
  readonly role: Role;

  constructor(scope: Construct, id: string, props: QueueTurnPipeProps) {
    super(scope, id);
    const inputTemplate = pipeInputTemplate({ ...props, message: props.message ?? WHOLE_BODY });
    this.role = new Role(this, 'Role', {
      // Only pipes of this account may take the role (the confused-deputy guard Pipes documents).
      assumedBy: new ServicePrincipal('pipes.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    });
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
        resources: [props.queue.queueArn],
      }),
    );
    props.queue.encryptionMasterKey?.grantDecrypt(this.role);
    // Step Functions authorizes a start through an alias on the state machine's own ARN.
    props.stateMachine.grantStartExecution(this.role);
    this.pipe = new CfnPipe(this, 'Pipe', {
      description: 'Starts an AgentStep turn for each message of the queue.',
      roleArn: this.role.roleArn,
      source: props.queue.queueArn,
      sourceParameters: { sqsQueueParameters: { batchSize: 1 } },
      target: props.liveArn ?? props.stateMachine.stateMachineArn,
      targetParameters: {
        stepFunctionStateMachineParameters: { invocationType: 'FIRE_AND_FORGET' },
        inputTemplate,
      },
    });
    // Pipes checks its role's access when it starts: create the pipe after the role's policy.
    this.pipe.node.addDependency(this.role);
  }
}

/**
 * The pipe's input template: a JSON object whose fixed fields are JSON and whose message and
 * `requestId` are placeholders over the SQS record. Pipes fills a bare placeholder with the field's
 * JSON value; inside a string, with the raw text.
 */
function pipeInputTemplate(options: TurnTriggerOptions): string {
  const parts = parseMessageTemplate(options.message, 'runOnQueue');
  const whole = wholeField(parts);
  const message =
    whole !== undefined
      ? `<${whole}>`
      : `"${parts.map((part) => ('path' in part ? `<${part.path}>` : JSON.stringify(part.text).slice(1, -1))).join('')}"`;
  const fields: Partial<Record<keyof TurnRequest, string>> = {
    message,
    // SQS's id of the message: the same on every receive of it.
    requestId: '<$.messageId>',
    ...Object.fromEntries(
      Object.entries(fixedTurnFields(options, 'runOnQueue')).map(([field, value]) => [
        field,
        JSON.stringify(value),
      ]),
    ),
  };
  return `{${Object.entries(fields)
    .map(([field, value]) => `${JSON.stringify(field)}:${value}`)
    .join(',')}}`;
}
