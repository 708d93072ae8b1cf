/**
 * For tests that run `agentstep` commands in-process: an in-memory IO whose store and stop
 * requests the test controls, and the store a local run opens on a DynamoDB it is given; for them
 * and tests of the binary, waits on a running command's output and its `--json` lines.
 */
export { jsonLines } from './io/json-lines.js';
export { type MemoryIo, type MemoryIoOptions, memoryIo } from './io/memory-io.js';
export { type OutputWaits, outputWaits, type PrintedOutput } from './io/output-waits.js';
export { dynamoDbStore, type OpenStore, type StoreKind } from './local/open-store.js';
