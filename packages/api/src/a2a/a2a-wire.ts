import * as z from 'zod';

/** The A2A protocol version this server speaks (the `A2A-Version` header, the card's interfaces). */
export const A2A_VERSION = '1.0';

/** A task's state, as A2A 1.0 names it on the wire. */
export type A2aTaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED';

/** The states a task filter may name. */
export const A2A_TASK_STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

const partSchema = z
  .object({
    text: z.string().optional(),
    data: z.unknown().optional(),
    url: z.string().optional(),
    raw: z.string().optional(),
    mediaType: z.string().optional(),
    filename: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((part) => [part.text, part.data, part.url, part.raw].filter((v) => v !== undefined).length === 1, {
    message: 'a part holds exactly one of text, data, url or raw',
  });

/** One part of a message: text, JSON data, or a file by URL or bytes. */
export type A2aPart = z.infer<typeof partSchema>;

/** A message as a client sends it. */
export const a2aMessageSchema = z.object({
  messageId: z.string().min(1),
  role: z.enum(['ROLE_USER', 'ROLE_AGENT']),
  parts: z.array(partSchema).min(1),
  contextId: z.string().min(1).optional(),
  taskId: z.string().min(1).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
});

/** A message, as the server writes it. */
export interface A2aMessage {
  messageId: string;
  role: 'ROLE_USER' | 'ROLE_AGENT';
  parts: A2aPart[];
  contextId?: string;
  taskId?: string;
}

/** `SendMessage` and `SendStreamingMessage`'s params. */
export const sendMessageRequestSchema = z.object({
  tenant: z.string().optional(),
  message: a2aMessageSchema,
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string()).optional(),
      historyLength: z.number().int().min(0).optional(),
      returnImmediately: z.boolean().optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** What a client sends to run a turn, or to answer a task that waits for it. */
export type SendMessageRequest = z.infer<typeof sendMessageRequestSchema>;

/** `GetTask`'s params. */
export const getTaskRequestSchema = z.object({
  tenant: z.string().optional(),
  id: z.string().min(1),
  historyLength: z.coerce.number().int().min(0).optional(),
});

/** `CancelTask`'s and `SubscribeToTask`'s params. */
export const taskIdRequestSchema = z.object({ tenant: z.string().optional(), id: z.string().min(1) });

/** `ListTasks`' params. */
export const listTasksRequestSchema = z.object({
  tenant: z.string().optional(),
  contextId: z.string().min(1).optional(),
  /** Only tasks in this state (`TASK_STATE_UNSPECIFIED`: any). */
  status: z
    .enum([...A2A_TASK_STATES, 'TASK_STATE_UNSPECIFIED'])
    .transform((state) => (state === 'TASK_STATE_UNSPECIFIED' ? undefined : state))
    .optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  pageToken: z.string().optional(),
  historyLength: z.coerce.number().int().min(0).optional(),
  statusTimestampAfter: z.iso.datetime({ offset: true }).optional(),
  includeArtifacts: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
    .optional(),
});

/** What `ListTasks` asks for. */
export type ListTasksRequest = z.infer<typeof listTasksRequestSchema>;

/** Where a task stands. */
export interface A2aTaskStatus {
  state: A2aTaskState;
  message?: A2aMessage;
  timestamp?: string;
}

/** A named output of a task: the turn's answer. */
export interface A2aArtifact {
  artifactId: string;
  name?: string;
  parts: A2aPart[];
}

/** A task: one turn of a session (its context). */
export interface A2aTask {
  id: string;
  contextId: string;
  status: A2aTaskStatus;
  artifacts?: A2aArtifact[];
  history?: A2aMessage[];
  metadata?: Record<string, unknown>;
}

/** One event of a stream: exactly one member. */
export type A2aStreamResponse =
  | { task: A2aTask }
  | { message: A2aMessage }
  | {
      statusUpdate: {
        taskId: string;
        contextId: string;
        status: A2aTaskStatus;
        metadata?: Record<string, unknown>;
      };
    }
  | { artifactUpdate: { taskId: string; contextId: string; artifact: A2aArtifact; lastChunk?: boolean } };
