import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach } from 'vitest';
import { describeWorkspaceContract } from '../testing/workspace-contract.js';
import { S3Workspace } from './s3-workspace.js';

/** An in-memory bucket behind the real S3Client: what S3 answers to these three commands. */
const objects = new Map<string, Buffer>();
const s3 = mockClient(S3Client);

beforeEach(() => {
  s3.reset();
  s3.on(PutObjectCommand).callsFake(({ Key, Body }) => {
    objects.set(Key, Buffer.from(Body as Buffer));
    return {};
  });
  s3.on(GetObjectCommand).callsFake(({ Key }) => {
    const body = objects.get(Key);
    if (body === undefined)
      throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });
    return {
      Body: { transformToString: async () => body.toString('utf8') },
    } as unknown as GetObjectCommandOutput;
  });
  s3.on(ListObjectsV2Command).callsFake(({ Prefix = '', Delimiter }) => {
    const keys = [...objects.keys()].filter((key) => key.startsWith(Prefix)).sort();
    const folders = new Set<string>();
    const files = keys.filter((key) => {
      const cut = Delimiter ? key.indexOf(Delimiter, Prefix.length) : -1;
      if (cut >= 0) folders.add(key.slice(0, cut + 1));
      return cut < 0;
    });
    return {
      CommonPrefixes: [...folders].map((folder) => ({ Prefix: folder })),
      Contents: files.map((key) => ({ Key: key, Size: objects.get(key)?.length ?? 0 })),
    };
  });
});

describeWorkspaceContract(
  'S3Workspace',
  () => new S3Workspace({ bucket: 'workspaces', client: new S3Client({ region: 'us-east-1' }) }),
);
