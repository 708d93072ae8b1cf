import { defineConfig } from 'vitest/config';

/** The cross-package layers under `test/`, each named after what its tests need. */
const LAYERS = ['stores', 'engine', 'api', 'cli', 'browser'] as const;

export default defineConfig({
  test: {
    // Every project's temporary files go in one folder the run removes when it ends; the layers
    // share one in-memory DynamoDB Local, started only when a run includes one of them.
    globalSetup: ['test/setup/temp-root.ts', 'test/setup/dynamodb-local.ts'],
    // Two cores here: a worker each. Files that wait on processes, sockets or DynamoDB Local overlap.
    maxWorkers: 2,
    // The AWS SDK's notice about Node.js 20 on every client says nothing a test can act on.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // In every project (`isolate: false`), test files share a worker's loaded modules (the SDK,
    // aws-cdk-lib, a synthesized loop) rather than loading them anew for each file, which took half
    // the unit run. No test file mocks modules or stubs globals; one that sets an environment
    // variable puts it back.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts'],
        },
      },
      ...LAYERS.map((layer) => ({
        extends: true,
        test: { name: layer, include: [`test/${layer}/**/*.test.ts`], testTimeout: 120_000 },
      })),
    ],
  },
});
