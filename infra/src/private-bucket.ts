import { RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, type BucketProps } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/**
 * A bucket no one reaches but through its policy and grants: public access blocked, encrypted, TLS
 * only, retained when the stack is deleted or a deploy would replace it unless `props.removalPolicy`
 * is `DESTROY`, which empties it first (CloudFormation deletes only an empty bucket).
 */
export function privateBucket(scope: Construct, id: string, props: BucketProps = {}): Bucket {
  const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
  return new Bucket(scope, id, {
    ...props,
    removalPolicy,
    autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
  });
}
