export {
  type A2aTestRequest,
  type A2aTestServer,
  type A2aTestServerOptions,
  startA2aTestServer,
} from './a2a-test-server.js';
export { collectParts, collectStream } from './collect-stream.js';
export { describeEventLogContract } from './event-log-contract.js';
export { describeEventLogForkContract } from './event-log-fork-contract.js';
export { describeOutcomeStoreContract } from './outcome-store-contract.js';
export {
  type AnthropicStreamUsage,
  anthropicStream,
  cutReply,
  type OpenAIStreamUsage,
  openAIStream,
  sseReply,
} from './provider-streams.js';
export { readUntil } from './read-until.js';
export { RECORDED_STREAMS, recordedFrames, type WireFormat } from './recorded-frames.js';
export { type RecordingServer, type Reply, startRecordingServer } from './recording-server.js';
export { describeSessionDirectoryContract } from './session-directory-contract.js';
export { describeTenantControlsContract } from './tenant-controls-contract.js';
export { describeTenantSpendContract } from './tenant-spend-contract.js';
export { describeTurnQueueContract } from './turn-queue-contract.js';
export { describeUsageLedgerContract } from './usage-ledger-contract.js';
export {
  startWindowServer,
  type WindowRequest,
  type WindowServer,
  type WindowServerOptions,
} from './window-server.js';
export { describeWorkspaceContract } from './workspace-contract.js';
