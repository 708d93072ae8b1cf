import { handlerFor } from './handler-for.js';

export const handler = await handlerFor();
