import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWorkspaceContract } from '../testing/workspace-contract.js';
import { LocalDirectoryWorkspace } from './local-directory-workspace.js';

describeWorkspaceContract(
  'LocalDirectoryWorkspace',
  () => new LocalDirectoryWorkspace(mkdtempSync(join(tmpdir(), 'ws-'))),
);
