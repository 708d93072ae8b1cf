import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every project's temporary files go in one folder the run removes when it ends.
    globalSetup: ['test/setup/temp-root.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts'],
          sequence: { groupOrder: 0 },
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
          testTimeout: 120_000,
        },
      },
    ],
  },
});
