import { InMemoryTaskTokenCompletions } from './in-memory-task-token-completions.js';
import { describeTaskTokenCompletionsContract } from './task-token-completions-contract.js';

describeTaskTokenCompletionsContract(
  'InMemoryTaskTokenCompletions',
  () => new InMemoryTaskTokenCompletions(),
);
