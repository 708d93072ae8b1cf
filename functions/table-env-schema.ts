import { ENV_NAMES } from '@agentstep/protocol';
import * as z from 'zod';

/** Environment every AgentStep function reads: the event-log table. */
export const tableEnvSchema = z.object({ [ENV_NAMES.table]: z.string().min(1) });
