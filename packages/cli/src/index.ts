export type { CliIo } from './io/cli-io.js';
export { main } from './main.js';
