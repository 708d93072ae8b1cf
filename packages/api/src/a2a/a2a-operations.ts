import type { Context } from 'hono';
import type * as z from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { invalidParams } from './a2a-error.js';
import type { A2aBinding } from './a2a-format.js';
import { listA2aTasks } from './a2a-list-tasks.js';
import { streamA2aTask } from './a2a-stream.js';
import { A2aTasks } from './a2a-tasks.js';
import {
  getTaskRequestSchema,
  listTasksRequestSchema,
  sendMessageRequestSchema,
  taskIdRequestSchema,
} from './a2a-wire.js';

/** The operations this server answers, by their JSON-RPC method names. */
export const A2A_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
] as const;

/** One of {@link A2A_METHODS}. */
export type A2aMethod = (typeof A2A_METHODS)[number];

/** An operation's answer: its result, or its stream (already a response). */
export type A2aAnswer = { result: unknown } | { stream: Response };

/**
 * Runs one A2A operation for `tenant`, its params as sent: a blocking `SendMessage` answers once its
 * task ends or waits for a person (or as it stands when the API's stream limit comes), a streaming
 * one and `SubscribeToTask` answer with the task's stream in `binding`'s form.
 */
export async function a2aOperation(
  c: Context,
  deps: ApiDeps,
  tenant: string,
  method: A2aMethod,
  params: unknown,
  binding: A2aBinding,
): Promise<A2aAnswer> {
  const tasks = new A2aTasks(deps, tenant);
  switch (method) {
    case 'SendMessage': {
      const request = paramsOf(sendMessageRequestSchema, params, method);
      const id = await tasks.send(request);
      const view = { historyLength: request.configuration?.historyLength };
      const deadline = Date.now() + (deps.streamLimitMs ?? Number.POSITIVE_INFINITY);
      const task = request.configuration?.returnImmediately
        ? await tasks.get(id, view)
        : await tasks.settled(id, view, deadline, c.req.raw.signal);
      return { result: { task } };
    }
    case 'SendStreamingMessage': {
      const request = paramsOf(sendMessageRequestSchema, params, method);
      const id = await tasks.send(request);
      const from = request.message.taskId === undefined ? 'start' : 'now';
      return { stream: await streamA2aTask(c, deps, tasks, id, from, binding) };
    }
    case 'GetTask': {
      const { id, historyLength } = paramsOf(getTaskRequestSchema, params, method);
      return { result: await tasks.get(id, { historyLength }) };
    }
    case 'ListTasks':
      return { result: await listA2aTasks(tasks, paramsOf(listTasksRequestSchema, params, method)) };
    case 'CancelTask':
      return { result: await tasks.cancel(paramsOf(taskIdRequestSchema, params, method).id) };
    case 'SubscribeToTask': {
      const { id } = paramsOf(taskIdRequestSchema, params, method);
      return { stream: await streamA2aTask(c, deps, tasks, id, 'now', binding) };
    }
  }
}

function paramsOf<Schema extends z.ZodType>(
  schema: Schema,
  params: unknown,
  method: string,
): z.infer<Schema> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw invalidParams(method, parsed.error);
  return parsed.data;
}
