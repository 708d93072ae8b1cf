import { describeTurnQueueContract } from '../testing/turn-queue-contract.js';
import { InMemoryTurnQueue } from './in-memory-turn-queue.js';

describeTurnQueueContract('InMemoryTurnQueue', () => new InMemoryTurnQueue());
