import { modelStepDeps } from '../model-step-deps.js';
import { createHandler } from './handler.js';

export const handler = createHandler(modelStepDeps);
