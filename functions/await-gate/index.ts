import { tableStepDeps } from '../table-step-deps.js';
import { createHandler } from './handler.js';

export const handler = createHandler(tableStepDeps);
