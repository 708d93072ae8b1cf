import { defineConfig } from 'vitest/config';
import { LAYERS } from './test/setup/layers.js';

/** What every project runs with (a project does not inherit the root's test options). */
const everyProject = {
  // Test files share a worker's loaded modules (the SDK, aws-cdk-lib, a synthesized loop) rather
  // than loading them anew for each file, which took half the unit run. No test file mocks modules
  // or stubs globals; one that sets an environment variable puts it back.
  isolate: false,
  // A limit that catches a hang, never one that times a test: work that is CPU-bound (synthesizing
  // the loop, a first engine) takes many times its idle second on busy cores. Tests wait for
  // conditions; how long things take is `npm run bench`'s to say.
  testTimeout: 120_000,
  hookTimeout: 120_000,
};

/**
 * The adoption layer installs a new project's dependencies from the npm registry, as a user does:
 * a cold npm cache on a busy machine takes minutes, not seconds. Still a limit that catches a hang.
 */
const installsFromTheRegistry = { testTimeout: 600_000, hookTimeout: 600_000 };

// The AWS SDK's notice about Node.js 20 says nothing a test can act on: off in this process (the
// setup's DynamoDB Local client) and so in the workers and binaries it starts.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default defineConfig({
  test: {
    // Once per run, at the root (a project's own setup would run again for each project): one
    // temporary folder the run removes when it ends, one in-memory DynamoDB Local for the layers
    // and one build of the CLI's bundle for the layers that run the binary, and of the functions'
    // bundles for the deploy layer, each only when a project of the run needs it.
    globalSetup: [
      'test/setup/temp-root.ts',
      'test/setup/dynamodb-local.ts',
      'test/setup/cli-bundle.ts',
      'test/setup/function-bundles.ts',
    ],
    // Two cores here: a worker each. Files that wait on processes, sockets or DynamoDB Local overlap.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...everyProject,
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/bench/**/*.test.ts',
            'functions/**/*.test.ts',
            'infra/**/*.test.ts',
            'test/docs/**/*.test.ts',
          ],
        },
      },
      ...LAYERS.map((layer) => ({
        test: {
          ...everyProject,
          ...(layer === 'adoption' ? installsFromTheRegistry : {}),
          name: layer,
          include: [`test/${layer}/**/*.test.ts`],
        },
      })),
    ],
  },
});
