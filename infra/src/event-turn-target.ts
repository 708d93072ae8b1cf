import type { TurnRequest } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import { EventField, type IRuleRef, type IRuleTarget, RuleTargetInput } from 'aws-cdk-lib/aws-events';
import { addToDeadLetterQueueResourcePolicy, singletonEventRole } from 'aws-cdk-lib/aws-events-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { parseMessageTemplate, wholeField } from './message-template.js';
import { fixedTurnFields, type TurnTriggerOptions } from './turn-trigger-options.js';

/** How an EventBridge rule or schedule starts a turn: the turn's input, and how its delivery is retried. */
export interface EventTurnOptions extends TurnTriggerOptions {
  /**
   * Where an event goes when its turn could not be started (retries spent, or refused). Its policy
   * is extended so that the rule may send to it.
   * @default - the agent's trigger dead-letter queue (`agent.triggerDeadLetterQueue`)
   */
  readonly deadLetterQueue?: IQueue;
  /** Times EventBridge retries a failed start, 0–185. @default 8 */
  readonly retryAttempts?: number;
  /** How long EventBridge keeps retrying an event, 1 minute to 24 hours. @default Duration.hours(1) */
  readonly maxEventAge?: Duration;
}

/** Where a rule starts turns: through `liveArn`, an alias of `stateMachine`. */
export interface LiveStateMachine {
  readonly stateMachine: IStateMachine;
  readonly liveArn: string;
}

/**
 * The state machine's live alias as a rule's target, with no glue Lambda: an input transformer
 * builds the turn's input from the event (`requestId` = the event's id), and failed starts are
 * retried, then dead-lettered. Its role may start executions of the state machine, the ARN Step
 * Functions authorizes a start through an alias on.
 */
export function eventTurnTarget(
  target: LiveStateMachine,
  options: EventTurnOptions,
  deadLetterQueue: IQueue,
  method: string,
): IRuleTarget {
  const input = {
    message: ruleMessage(options.message, method),
    ...fixedTurnFields(options, method),
    // EventBridge's own id of the event: the same on every delivery and retry of it.
    requestId: EventField.eventId,
  } satisfies TurnRequest;
  const retryPolicy = {
    maximumRetryAttempts: retryAttempts(options.retryAttempts ?? 8, method),
    maximumEventAgeInSeconds: maxEventAge(options.maxEventAge ?? Duration.hours(1), method).toSeconds(),
  };
  return {
    // As CDK's SfnStateMachine binds, with the alias's ARN as the target's.
    bind(rule: IRuleRef) {
      addToDeadLetterQueueResourcePolicy(rule, deadLetterQueue);
      const role = singletonEventRole(target.stateMachine);
      target.stateMachine.grantStartExecution(role);
      return {
        deadLetterConfig: { arn: deadLetterQueue.queueArn },
        retryPolicy,
        arn: target.liveArn,
        role,
        input: RuleTargetInput.fromObject(input),
        targetResource: target.stateMachine,
      };
    },
  };
}

/** The message with each placeholder as an `EventField`, which CDK turns into an input transformer. */
function ruleMessage(template: string, method: string): string {
  const parts = parseMessageTemplate(template, method);
  const whole = wholeField(parts);
  if (whole !== undefined) return EventField.fromPath(whole);
  return parts.map((part) => ('path' in part ? EventField.fromPath(part.path) : part.text)).join('');
}

function retryAttempts(attempts: number, method: string): number {
  if (!Number.isInteger(attempts) || attempts < 0 || attempts > 185)
    throw new Error(
      `AgentStep ${method} option retryAttempts must be a whole number from 0 to 185, received ${attempts}.`,
    );
  return attempts;
}

function maxEventAge(age: Duration, method: string): Duration {
  const seconds = age.toSeconds({ integral: false });
  if (!Number.isInteger(seconds) || seconds < 60 || seconds > 86_400)
    throw new Error(
      `AgentStep ${method} option maxEventAge must be whole seconds from 1 minute to 24 hours, received ${age.toHumanString()}.`,
    );
  return age;
}
