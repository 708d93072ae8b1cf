import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, 'cdk.out/**', '.agentstep/**'],
    // A limit that catches a hang: the first run synthesizes the agent's state machine, which takes
    // several seconds (more on a busy machine).
    testTimeout: 120_000,
  },
});
