import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every project's temporary files go in one folder the run removes when it ends.
    globalSetup: ['test/setup/temp-root.ts'],
    // In both projects (`isolate: false`), test files share a worker's loaded modules (the SDK,
    // aws-cdk-lib, a synthesized loop) rather than loading them anew for each file, which took half
    // the unit run. No test file mocks modules or stubs globals; one that sets an environment
    // variable puts it back.
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          isolate: false,
        },
      },
      {
        // Cross-package tests on DynamoDB Local and the synthesized state machine: after the unit
        // tests and one file at a time, so CPU-heavy property tests never compete with their timing.
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/setup/dynamodb-local.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          isolate: false,
          testTimeout: 120_000,
        },
      },
    ],
  },
});
