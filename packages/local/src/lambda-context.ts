import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { localFunctionArn } from './resolve-tokens.js';

/** The Lambda context a local invocation gets, shaped like the real one. */
export function lambdaContext(functionName: string): Context {
  return {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: localFunctionArn(functionName),
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 300_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
