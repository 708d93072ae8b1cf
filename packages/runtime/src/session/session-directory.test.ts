import { describeSessionDirectoryContract } from '../testing/session-directory-contract.js';
import { InMemorySessionDirectory } from './session-directory.js';

describeSessionDirectoryContract('InMemorySessionDirectory', () => new InMemorySessionDirectory());
