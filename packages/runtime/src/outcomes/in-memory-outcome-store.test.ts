import { describeOutcomeStoreContract } from '../testing/outcome-store-contract.js';
import { InMemoryOutcomeStore } from './in-memory-outcome-store.js';

describeOutcomeStoreContract('InMemoryOutcomeStore', () => new InMemoryOutcomeStore());
