import {
  createToolset,
  demoTools,
  type ExecutionStarter,
  inMemoryStores,
  systemClock,
} from '@agentstep/runtime';
import type { ApiDeps } from '../api-deps.js';
import type { TenantOf } from '../tenants.js';
import { RecordingTaskTokens } from './recording-task-tokens.js';
import { RecordingWorkflowStarter } from './recording-workflow-starter.js';

/** A starter whose executions never run: a started turn stays running until the test moves it on. */
export const idleStarter: ExecutionStarter = { start: async ({ turn }) => turn, stop: async () => {} };

/**
 * Everything `createApi` needs, in process memory: the in-memory stores, the system clock, an
 * {@link idleStarter}, a {@link RecordingWorkflowStarter}, the demo tools and a
 * {@link RecordingTaskTokens}, acting for `tenantOf`.
 */
export function inMemoryApiDeps(tenantOf: TenantOf) {
  return {
    ...inMemoryStores(),
    clock: systemClock,
    starter: idleStarter,
    workflows: new RecordingWorkflowStarter(),
    tenantOf,
    toolset: createToolset(demoTools),
    taskTokens: new RecordingTaskTokens(),
  } satisfies ApiDeps;
}
