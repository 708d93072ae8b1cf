import {
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { resolveWorkspacePath } from './resolve-workspace-path.js';
import { sessionFolder } from './session-folder.js';
import type { Workspace, WorkspaceEntry } from './workspace.js';

/** Options of {@link S3Workspace}. */
export interface S3WorkspaceOptions {
  bucket: string;
  /** @default a default `S3Client` */
  client?: S3Client;
  /** Key prefix of all sessions' files. @default 'sessions/' */
  prefix?: string;
}

/** A {@link Workspace} in S3: each session's files under `<prefix><session>/`. */
export class S3Workspace implements Workspace {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(options: S3WorkspaceOptions) {
    this.#client = options.client ?? new S3Client({});
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ?? 'sessions/';
  }

  async read(session: string, path: string): Promise<string> {
    const key = resolveWorkspacePath(path);
    try {
      const object = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(session, key) }),
      );
      return (await object.Body?.transformToString('utf-8')) ?? '';
    } catch (error) {
      if (error instanceof NoSuchKey) throw new Error(`No such file or folder in the workspace: "${key}".`);
      throw error;
    }
  }

  async write(session: string, path: string, content: string): Promise<number> {
    const Body = Buffer.from(content, 'utf8');
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#key(session, resolveWorkspacePath(path)),
        Body,
        ContentType: 'text/plain; charset=utf-8',
      }),
    );
    return Body.length;
  }

  async list(session: string, folder: string): Promise<WorkspaceEntry[]> {
    const key = resolveWorkspacePath(folder, { allowRoot: true });
    const base = this.#key(session, key === '' ? '' : `${key}/`);
    const entries: WorkspaceEntry[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: base, Delimiter: '/', ContinuationToken }),
      );
      for (const { Prefix = '' } of page.CommonPrefixes ?? []) {
        entries.push({ path: this.#relative(session, Prefix).replace(/\/$/, ''), type: 'folder' });
      }
      for (const { Key = '', Size = 0 } of page.Contents ?? [])
        entries.push({ path: this.#relative(session, Key), type: 'file', size: Size });
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken !== undefined);
    if (entries.length === 0 && key !== '')
      throw new Error(`No such file or folder in the workspace: "${key}".`);
    return entries.sort((a, b) => a.path.localeCompare(b.path));
  }

  #key(session: string, key: string): string {
    return `${this.#prefix}${sessionFolder(session)}/${key}`;
  }

  #relative(session: string, key: string): string {
    return key.slice(this.#key(session, '').length);
  }
}
