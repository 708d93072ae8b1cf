import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'functions/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/setup/dynamodb-local.ts'],
  },
});
