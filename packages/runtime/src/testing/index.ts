export { collectStream } from './collect-stream.js';
export { describeEventLogContract } from './event-log-contract.js';
export { describeOutcomeStoreContract } from './outcome-store-contract.js';
export { type RecordingServer, type Reply, startRecordingServer } from './recording-server.js';
export { describeWorkspaceContract } from './workspace-contract.js';
