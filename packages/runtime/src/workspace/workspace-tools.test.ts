import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../tools/define-tool.js';
import { runTool } from '../tools/run-tool.js';
import { LocalDirectoryWorkspace } from './local-directory-workspace.js';
import { workspaceTools } from './workspace-tools.js';

describe('workspaceTools', () => {
  it('declares read, write and list idempotent', () => {
    const tools = workspaceTools(() => new LocalDirectoryWorkspace(tmpdir()));
    expect(tools.map((tool) => [tool.name, tool.idempotent])).toEqual([
      ['read', true],
      ['write', true],
      ['list', true],
    ]);
  });

  it('0031 a write delivered twice under one idempotency key is one effect: one file, the same content, the same result', async () => {
    const workspace = new LocalDirectoryWorkspace(mkdtempSync(join(tmpdir(), 'ws-once-')), {
      quota: { files: 1, bytes: 5 },
    });
    // The quota is full after one write: a second effect would be refused.
    const tools = workspaceTools(() => workspace);
    const [read, write, list] = ['read', 'write', 'list'].map(
      (name) => tools.find((tool) => tool.name === name) ?? expect.unreachable(),
    ) as [Tool, Tool, Tool];
    const call = { session: 's', turn: 't', batch: 't.1', position: 0 };
    const args = { file: 'a.txt', content: 'hello' };
    const first = await runTool(write, args, call);
    expect(await runTool(write, args, call)).toEqual(first);
    expect(first).toEqual({ tool: 'write', status: 'success', content: { file: 'a.txt', bytes: 5 } });
    expect((await runTool(read, { file: 'a.txt' }, call)).content).toMatchObject({ content: 'hello' });
    expect((await runTool(list, {}, call)).content).toHaveLength(1);
  });
});
