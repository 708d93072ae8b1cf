import { RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, type BucketProps } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/**
 * A bucket no one reaches but through its policy and grants: public access blocked, encrypted, TLS
 * only, retained when the stack is deleted or a deploy would replace it.
 */
export function privateBucket(scope: Construct, id: string, props: BucketProps = {}): Bucket {
  return new Bucket(scope, id, {
    removalPolicy: RemovalPolicy.RETAIN,
    ...props,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
  });
}
