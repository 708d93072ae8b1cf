// The S3 adapter, apart from the core so that importing the runtime does not load the S3 client.
export { S3Workspace, type S3WorkspaceOptions } from './workspace/s3-workspace.js';
