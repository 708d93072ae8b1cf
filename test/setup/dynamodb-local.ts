import { JavaMissingError, startDynamoDbLocal } from '@agentstep/local';
import type { TestProject } from 'vitest/node';
import { ON_DYNAMODB_LOCAL } from './layers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DynamoDB Local's endpoint, or '' when Java is missing or no project of the run needs it. */
    dynamoEndpoint: string;
  }
}

/**
 * Starts one in-memory DynamoDB Local for the whole test run, when a project of the run needs it
 * (`npm run test:fast` runs the unit tests alone, without Java).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('dynamoEndpoint', '');
  if (!project.vitest.projects.some(({ name }) => ON_DYNAMODB_LOCAL.has(name))) return async () => {};
  try {
    const local = await startDynamoDbLocal();
    project.provide('dynamoEndpoint', local.endpoint);
    return () => local.stop();
  } catch (error) {
    if (!(error instanceof JavaMissingError)) throw error;
    console.warn(`\n${error.message} Tests on DynamoDB Local are reported as skipped.\n`);
    return async () => {};
  }
}
