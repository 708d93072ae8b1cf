import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * Where EventBridge puts the events whose turns it could not start: encrypted (SQS-managed keys,
 * which EventBridge may send to without a key policy), TLS only, kept the longest SQS allows so
 * they can be inspected and redriven; retained, as the events it holds are, unless `removalPolicy`
 * says otherwise.
 */
export function triggerDeadLetterQueue(
  scope: Construct,
  id: string,
  removalPolicy: RemovalPolicy = RemovalPolicy.RETAIN,
): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy,
  });
}
