import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach } from 'vitest';
import { describeWorkspaceContract } from '../testing/workspace-contract.js';
import { S3Workspace } from './s3-workspace.js';

/** An in-memory bucket behind the real S3Client: what S3 answers to these four commands. */
const objects = new Map<string, Buffer>();
const s3 = mockClient(S3Client);
// Test files share their worker's modules: the client's real send comes back for the next file.
afterAll(() => s3.restore());

beforeEach(() => {
  s3.reset();
  s3.on(PutObjectCommand).callsFake(({ Key, Body }) => {
    objects.set(Key, Buffer.from(Body as Buffer));
    return {};
  });
  s3.on(GetObjectCommand).callsFake(({ Key, Range }) => {
    const body = stored(Key);
    const [, first = '', last = ''] = /^bytes=(\d+)-(\d+)$/.exec(Range ?? '') ?? [];
    if (Number(first) >= body.length) throw invalidRange();
    const end = Math.min(Number(last), body.length - 1);
    const part = body.subarray(Number(first), end + 1);
    return {
      Body: { transformToByteArray: async () => new Uint8Array(part) },
      ContentRange: `bytes ${first}-${end}/${body.length}`,
    } as unknown as GetObjectCommandOutput;
  });
  s3.on(HeadObjectCommand).callsFake(({ Key }) => ({ ContentLength: stored(Key).length }));
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

function stored(Key: string): Buffer {
  const body = objects.get(Key);
  if (body === undefined)
    throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });
  return body;
}

/** S3's answer to a range that starts at or past the end of an object. */
function invalidRange(): S3ServiceException {
  return new S3ServiceException({
    name: 'InvalidRange',
    $fault: 'client',
    message: 'The requested range is not satisfiable',
    $metadata: { httpStatusCode: 416 },
  });
}

describeWorkspaceContract(
  'S3Workspace',
  (quota) =>
    new S3Workspace({
      bucket: 'workspaces',
      client: new S3Client({ region: 'us-east-1' }),
      ...(quota ? { quota } : {}),
    }),
);
