import { describeTenantControlsContract } from '../testing/tenant-controls-contract.js';
import { InMemoryTenantControls } from './tenant-controls.js';

describeTenantControlsContract('InMemoryTenantControls', () => new InMemoryTenantControls());
