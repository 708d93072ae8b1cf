import * as z from 'zod';

/** Environment every AgentStep function reads: the event-log table. */
export const tableEnvSchema = z.object({ AGENTSTEP_TABLE: z.string().min(1) });
