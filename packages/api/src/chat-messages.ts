import type { CallOutcome, StoredEvent } from '@agentstep/protocol';
import { turnOfBatch } from '@agentstep/runtime';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { AiSdkFormat } from './ai-sdk-format.js';

/** One turn of a session's log: its id and its events, its `user` event first. */
interface LoggedTurn {
  turn: string;
  events: StoredEvent[];
}

/**
 * A session's log as the AI SDK's `UIMessage[]`: per turn, the `user` message (its text) and one
 * `assistant` message whose id is the turn's, as the SDK's own reader builds it from the turn's UI
 * message stream (parts in their final states; the running turn's as far as it is logged, with the
 * `outcomes` of its open batch's calls that are stored before the batch's result).
 * `running` is the id of the turn that has not ended, if one runs.
 */
export async function chatMessages(
  events: readonly StoredEvent[],
  running?: string,
  outcomes: readonly CallOutcome[] = [],
): Promise<UIMessage[]> {
  const messages: UIMessage[] = [];
  for (const { turn, events: logged } of loggedTurns(events, running)) {
    const user = logged[0]?.event;
    const text = user?.type === 'user' ? user.content : '';
    messages.push({ id: `${turn}.user`, role: 'user', parts: [{ type: 'text', text }] });
    messages.push(await assistantMessage(turn, logged, turn === running ? outcomes : []));
  }
  return messages;
}

/** The turn's assistant message as the SDK's reader makes it of the turn's chunks. */
async function assistantMessage(
  turn: string,
  events: readonly StoredEvent[],
  outcomes: readonly CallOutcome[],
): Promise<UIMessage> {
  const format = new AiSdkFormat({ turn });
  // A failed turn's `error` chunk changes no part (the reader only reports it): the message is read
  // without it, so that any other error in reading it fails the request.
  const chunks = [
    { type: 'start', messageId: turn },
    ...events.flatMap((stored) => format.chunks(stored)),
    ...outcomes.flatMap((outcome) => format.outcomeChunks(outcome)),
  ].filter((chunk) => chunk.type !== 'error');
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk);
      controller.close();
    },
  });
  let message: UIMessage = { id: turn, role: 'assistant', parts: [] };
  for await (const state of readUIMessageStream({ stream, terminateOnError: true })) message = state;
  return message;
}

/**
 * The log cut at each `user` event, each turn named by its end; the running one by `running`, and
 * one that never ended (a fork's log cut it at a batch's results) by its batches' ids.
 */
function loggedTurns(events: readonly StoredEvent[], running?: string): LoggedTurn[] {
  const turns: StoredEvent[][] = [];
  for (const stored of events) {
    if (stored.event.type === 'user') turns.push([]);
    turns.at(-1)?.push(stored);
  }
  return turns.flatMap((logged, index) => {
    const end = logged.find(({ event }) => event.type === 'turn_end')?.event;
    const last = index === turns.length - 1;
    const batch = logged.find((stored) => stored.batch !== undefined)?.batch;
    const turn =
      end?.type === 'turn_end'
        ? end.payload.turn
        : ((last ? running : undefined) ?? (batch === undefined ? undefined : turnOfBatch(batch)));
    return turn === undefined ? [] : [{ turn, events: logged }];
  });
}
