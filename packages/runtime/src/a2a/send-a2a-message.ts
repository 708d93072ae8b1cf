import { SendMessageRequest } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { A2AError } from '@a2a-js/sdk/errors';
import type { SecretLookup } from '../mcp/resolve-headers.js';
import { outcomeUnknownText } from '../steps/outcome-unknown.js';
import { A2A_CANCEL_TIMEOUT_MS, type A2aAgentSpec, DEFAULT_A2A_TIMEOUT_MS } from './a2a-agent-spec.js';
import { a2aClientOf } from './a2a-client-of.js';
import { RemoteTask } from './remote-task.js';

/** What one call of a remote agent's tool sends. */
export interface A2aMessageInput {
  message: string;
  /** The remote conversation to go on with (its `contextId`). */
  context?: string | undefined;
}

/** How one call is sent: its key, its signal, and how its headers' secrets are read. */
export interface A2aCall {
  /** The call's stable key (decision 0031), sent as the message's `messageId`. */
  idempotencyKey: string;
  /** Stops the call: the remote task, once its id is known, is asked to cancel. */
  signal: AbortSignal;
  secretOf: SecretLookup;
}

/** A remote agent's answer, as the call's output. */
export interface A2aAnswer {
  /** The answer's text. */
  answer: string;
  /** The remote task's id; none when the agent answered at once, starting no task. */
  task?: string;
  /** The remote conversation's id: send it again as `context` to go on with it. */
  context?: string;
}

/**
 * Sends a message to a remote agent (`SendStreamingMessage`, or a blocking `SendMessage` to an
 * agent whose card says it does not stream) with `messageId` the call's key, and follows the task
 * it starts until it ends or waits for someone; a stream that closes sooner is caught up with
 * `GetTask`. Resolves with the answer of a completed task (or of an agent that answered at once).
 * Throws, naming the agent: `could not be reached` (its card could not be read: nothing was sent),
 * `refused the message` (an A2A error, before any task), `… waits for input` (input-required or
 * auth-required: this call cannot answer), `… ended TASK_STATE_FAILED` (or canceled, rejected),
 * and `outcome unknown: …` for a task given up on (time limit, the call stopped, the stream lost),
 * which is asked to cancel once its id is known.
 */
export async function sendA2aMessage(
  spec: A2aAgentSpec,
  input: A2aMessageInput,
  call: A2aCall,
): Promise<A2aAnswer> {
  const timeoutMs = spec.timeoutMs ?? DEFAULT_A2A_TIMEOUT_MS;
  const signal = AbortSignal.any([call.signal, AbortSignal.timeout(timeoutMs)]);
  const agent = `A2A agent ${spec.name}`;
  const stopped = () =>
    call.signal.aborted ? 'was stopped by its caller' : `did not finish within ${timeoutMs / 1000} s`;
  let client: Client;
  try {
    client = await a2aClientOf(spec, call.secretOf, signal);
  } catch (error) {
    if (signal.aborted)
      throw new Error(`${agent} ${stopped()} before its card was read: nothing was sent.`, { cause: error });
    throw new Error(`${agent} (${new URL(spec.url).origin}) could not be reached: ${describe(error)}`, {
      cause: error,
    });
  }
  const remote = new RemoteTask();
  const gaveUp = (why: string, cause?: unknown) => givenUp(client, remote, `${agent} ${why}`, cause);
  try {
    const request = messageRequest(input, call.idempotencyKey);
    for await (const event of client.sendMessageStream(request, { signal })) {
      remote.see(event);
      // Settled: a stream the remote leaves open after the end has nothing more for this call.
      if (remote.settled) break;
    }
    if (!remote.settled && remote.id !== undefined)
      remote.seeTask(await client.getTask({ id: remote.id, tenant: '', historyLength: 0 }, { signal }));
  } catch (error) {
    if (signal.aborted) throw await gaveUp(stopped(), error);
    if (remote.id === undefined && isRefusal(error))
      throw new Error(`${agent} refused the message: ${describe(error)}`, { cause: error });
    throw await gaveUp(`stopped answering after the message was sent: ${describe(error)}`, error);
  }
  if (!remote.settled) throw await gaveUp(`closed its stream while the task was ${remote.state}`);
  return answerOf(agent, remote);
}

/** `SendMessage`'s params, from their wire form (the SDK's in-memory form needs every field). */
function messageRequest({ message, context }: A2aMessageInput, messageId: string): SendMessageRequest {
  const parts = [{ text: message }];
  const wire = {
    messageId,
    role: 'ROLE_USER',
    parts,
    ...(context === undefined ? {} : { contextId: context }),
  };
  return SendMessageRequest.fromJSON({ message: wire });
}

/** The answer of a settled task: a completed one's; any other state throws, saying what it said. */
function answerOf(agent: string, remote: RemoteTask): A2aAnswer {
  const ids = {
    ...(remote.id === undefined ? {} : { task: remote.id }),
    ...(remote.context === undefined ? {} : { context: remote.context }),
  };
  if (remote.completed) return { answer: remote.answer, ...ids };
  const said = remote.said ? `: ${remote.said}` : ', saying nothing more.';
  const { state } = remote;
  if (state === 'TASK_STATE_INPUT_REQUIRED' || state === 'TASK_STATE_AUTH_REQUIRED')
    throw new Error(
      `${agent} waits for input on its task ${remote.id} (${state}), which this call cannot give; it asked${said}`,
    );
  throw new Error(`${agent}'s task ${remote.id} ended ${state}${said}`);
}

/**
 * The failure of a task given up on, once the remote agent was asked to cancel it. With no task id
 * yet (the stream broke, or the call stopped, before its first event), it cannot be asked: the
 * task, if one started, runs to its own end there. That is acceptable: the call's failure says so
 * (`outcome unknown`), nothing here waits for it, and the window is one round trip.
 */
async function givenUp(client: Client, remote: RemoteTask, why: string, cause: unknown): Promise<Error> {
  if (remote.id === undefined)
    return new Error(
      outcomeUnknownText(`${why}, before it named its task: a task it may have started was not canceled.`),
      { cause },
    );
  const canceled = await cancelOf(client, remote.id);
  return new Error(outcomeUnknownText(`${why}; its task ${remote.id} ${canceled}.`), { cause });
}

/** Asks the remote agent to cancel a task, within {@link A2A_CANCEL_TIMEOUT_MS}; says how that went. */
async function cancelOf(client: Client, id: string): Promise<string> {
  try {
    const signal = AbortSignal.timeout(A2A_CANCEL_TIMEOUT_MS);
    const task = await client.cancelTask({ id, tenant: '', metadata: undefined }, { signal });
    const remote = new RemoteTask();
    remote.seeTask(task);
    return `was asked to cancel, and is ${remote.state}`;
  } catch (error) {
    return `could not be asked to cancel (${describe(error)})`;
  }
}

/** An A2A error the remote agent answered with (the SDK maps JSON-RPC and HTTP+JSON errors to them). */
function isRefusal(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if (cause instanceof A2AError) return true;
  return false;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const said = error.message || error.name;
  // fetch says only `fetch failed`: why (refused, reset, closed) is its cause's.
  return said === 'fetch failed' && error.cause instanceof Error ? `${said} (${error.cause.message})` : said;
}
