/**
 * For tests that run `agentstep` commands in-process: an in-memory IO whose store and stop
 * requests the test controls, and the store a local run opens on a DynamoDB it is given.
 */
export { type MemoryIo, type MemoryIoOptions, memoryIo } from './io/memory-io.js';
export { dynamoDbStore, type OpenStore, type StoreKind } from './local/open-store.js';
