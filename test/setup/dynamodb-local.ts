import { JavaMissingError, startDynamoDbLocal } from '@agentstep/local';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DynamoDB Local's endpoint, or '' when Java is missing or no project of the run needs it. */
    dynamoEndpoint: string;
  }
}

/** The projects whose tests run on DynamoDB Local: every layer under `test/`, not the unit tests. */
const needsDynamoDb = (project: TestProject) => project.name !== 'unit';

/**
 * Starts one in-memory DynamoDB Local for the whole test run, when a project of the run needs it
 * (`npm run test:fast` runs the unit tests alone, without Java).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('dynamoEndpoint', '');
  if (!project.vitest.projects.some(needsDynamoDb)) return async () => {};
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
