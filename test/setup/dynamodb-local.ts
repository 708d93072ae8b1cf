import { JavaMissingError, startDynamoDbLocal } from '@agentstep/local';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DynamoDB Local's endpoint, or '' when Java is missing. */
    dynamoEndpoint: string;
  }
}

/** Starts one in-memory DynamoDB Local for the whole test run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    const local = await startDynamoDbLocal();
    project.provide('dynamoEndpoint', local.endpoint);
    return () => local.stop();
  } catch (error) {
    if (!(error instanceof JavaMissingError)) throw error;
    console.warn(`\n${error.message} Tests on DynamoDB Local are reported as skipped.\n`);
    project.provide('dynamoEndpoint', '');
    return async () => {};
  }
}
