import { describeTenantSpendContract } from '../testing/tenant-spend-contract.js';
import { InMemoryTenantSpend } from './tenant-spend.js';

describeTenantSpendContract('InMemoryTenantSpend', () => new InMemoryTenantSpend());
