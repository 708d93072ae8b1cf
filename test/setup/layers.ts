/** The cross-package layers under `test/`, each a Vitest project named after what its tests need. */
export const LAYERS = ['stores', 'engine', 'api', 'cli', 'deploy', 'browser', 'adoption'] as const;

/** A layer, by its project's name. */
export type Layer = (typeof LAYERS)[number];

/** The layers whose tests run on the run's DynamoDB Local (the unit and browser tests need none). */
export const ON_DYNAMODB_LOCAL: ReadonlySet<string> = new Set<Layer>([
  'stores',
  'engine',
  'api',
  'cli',
  'deploy',
]);

/** The layers whose tests start the real `agentstep` binary. */
export const RUNS_THE_BINARY: ReadonlySet<string> = new Set<Layer>(['cli', 'deploy', 'browser']);
