import type { ListObjectsV2CommandOutput, S3Client } from '@aws-sdk/client-s3';
import { resolveWorkspacePath } from './resolve-workspace-path.js';
import { sessionFolder } from './session-folder.js';
import { SessionQuota, type WorkspaceUsage } from './session-quota.js';
import { UTF8_TAIL_BYTES, utf8Page } from './utf8-page.js';
import type { FilePage, ReadWindow, Workspace, WorkspaceEntry, WorkspaceQuota } from './workspace.js';

/** The S3 SDK, imported when a workspace first touches S3, not on every cold start of its function. */
const s3Sdk = () => import('@aws-sdk/client-s3');

/** Options of {@link S3Workspace}. */
export interface S3WorkspaceOptions {
  bucket: string;
  /** @default a default `S3Client`, made on first use */
  client?: S3Client;
  /** Key prefix of all sessions' files. @default 'sessions/' */
  prefix?: string;
  /** What one session may hold. @default 1,000 files, 100 MiB */
  quota?: WorkspaceQuota;
}

/**
 * A {@link Workspace} in S3: each session's files under `<prefix><session>/`. Reads are ranged
 * GETs of the window asked for; a write first counts the session's objects against its quota.
 */
export class S3Workspace implements Workspace {
  #client: S3Client | undefined;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #quota: SessionQuota;

  constructor(options: S3WorkspaceOptions) {
    this.#client = options.client;
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ?? 'sessions/';
    this.#quota = new SessionQuota(options.quota);
  }

  async read(session: string, path: string, { offset, limit }: ReadWindow): Promise<FilePage> {
    const key = resolveWorkspacePath(path);
    const Key = this.#key(session, key);
    const { sdk, client } = await this.#sdk();
    try {
      const object = await client.send(
        new sdk.GetObjectCommand({
          Bucket: this.#bucket,
          Key,
          Range: `bytes=${offset}-${offset + limit + UTF8_TAIL_BYTES - 1}`,
        }),
      );
      const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
      return utf8Page(bytes, offset, limit, totalOf(object.ContentRange));
    } catch (error) {
      if (error instanceof sdk.NoSuchKey)
        throw new Error(`No such file or folder in the workspace: "${key}".`);
      // S3 answers 416 to a range that starts past the end, an empty object's included.
      if (!(error instanceof sdk.S3ServiceException) || error.name !== 'InvalidRange') throw error;
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.#bucket, Key }));
      return utf8Page(new Uint8Array(), offset, limit, head.ContentLength ?? 0);
    }
  }

  async write(session: string, path: string, content: string): Promise<number> {
    const key = resolveWorkspacePath(path);
    const Body = Buffer.from(content, 'utf8');
    const { usage, replaces } = await this.#usage(session, this.#key(session, key));
    this.#quota.check(usage, { key, bytes: Body.length, replaces });
    const { sdk, client } = await this.#sdk();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#key(session, key),
        Body,
        ContentType: 'text/plain; charset=utf-8',
      }),
    );
    return Body.length;
  }

  async list(session: string, folder: string): Promise<WorkspaceEntry[]> {
    const key = resolveWorkspacePath(folder, { allowRoot: true });
    const entries: WorkspaceEntry[] = [];
    for await (const page of this.#pages(this.#key(session, key === '' ? '' : `${key}/`), '/')) {
      for (const { Prefix = '' } of page.CommonPrefixes ?? []) {
        entries.push({ path: this.#relative(session, Prefix).replace(/\/$/, ''), type: 'folder' });
      }
      for (const { Key = '', Size = 0 } of page.Contents ?? [])
        entries.push({ path: this.#relative(session, Key), type: 'file', size: Size });
    }
    if (entries.length === 0 && key !== '')
      throw new Error(`No such file or folder in the workspace: "${key}".`);
    return entries.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** The session's objects and bytes, and the size of the object at `Key` when it exists. */
  async #usage(session: string, Key: string): Promise<{ usage: WorkspaceUsage; replaces?: number }> {
    const usage = { files: 0, bytes: 0 };
    let replaces: number | undefined;
    for await (const page of this.#pages(this.#key(session, ''))) {
      for (const object of page.Contents ?? []) {
        usage.files += 1;
        usage.bytes += object.Size ?? 0;
        if (object.Key === Key) replaces = object.Size ?? 0;
      }
      // Past the quota's files the write fails whatever the rest holds.
      if (usage.files > this.#quota.files) break;
    }
    return { usage, ...(replaces === undefined ? {} : { replaces }) };
  }

  /** Every page of keys under `Prefix`, grouped into folders at `Delimiter` when given. */
  async *#pages(Prefix: string, Delimiter?: string): AsyncGenerator<ListObjectsV2CommandOutput> {
    const { sdk, client } = await this.#sdk();
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.#bucket, Prefix, Delimiter, ContinuationToken }),
      );
      yield page;
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken !== undefined);
  }

  /** The SDK and the client, the default one made on first use. */
  async #sdk() {
    const sdk = await s3Sdk();
    this.#client ??= new sdk.S3Client({});
    return { sdk, client: this.#client };
  }

  #key(session: string, key: string): string {
    return `${this.#prefix}${sessionFolder(session)}/${key}`;
  }

  #relative(session: string, key: string): string {
    return key.slice(this.#key(session, '').length);
  }
}

/** The object's whole size from a ranged GET's `Content-Range` (`bytes 0-99/1234`). */
function totalOf(range: string | undefined): number {
  const total = Number(range?.split('/')[1]);
  if (!Number.isSafeInteger(total)) {
    throw new Error(`S3 answered a ranged read without a usable Content-Range (received "${range}").`);
  }
  return total;
}
