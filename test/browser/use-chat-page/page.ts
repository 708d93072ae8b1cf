/// <reference lib="dom" />
/**
 * A chat page as a React developer writes one with `@ai-sdk/react`'s `useChat` and the stock
 * `DefaultChatTransport`, bundled by the browser test and served from another origin than the API.
 * Its query says where and as whom: `api` (the API's origin), `tenant` (the dev bearer token),
 * `chat` (an existing chat to open, its messages read from `GET /chat/{id}/messages`) and `resume`
 * (present: `useChat`'s `resume: true`). It shows each message's parts as text, for the test to read.
 */
import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { createElement as h, type ReactNode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { type Approve, messagesView } from './part-view.js';

const query = new URLSearchParams(location.search);
const api = query.get('api') ?? location.origin;
const headers = { authorization: `Bearer ${query.get('tenant') ?? 'ann'}` };
const transport = new DefaultChatTransport({ api: `${api}/chat`, headers });

/** The chat: its id, status and error, its messages, a box to send with, and Stop. */
function ChatPage({ id, messages }: { id: string | undefined; messages: UIMessage[] }): ReactNode {
  const chat = useChat({
    ...(id === undefined ? {} : { id }),
    messages,
    transport,
    resume: query.has('resume'),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [text, setText] = useState('');
  const approve: Approve = (approval) => void chat.addToolApprovalResponse({ id: approval, approved: true });
  const send = () => {
    void chat.sendMessage({ text });
    setText('');
  };
  return h(
    'main',
    null,
    h('output', { 'data-testid': 'chat' }, chat.id),
    h('output', { 'data-testid': 'status' }, chat.status),
    h('output', { 'data-testid': 'error' }, chat.error?.message ?? ''),
    messagesView(chat.messages, approve),
    h('input', { 'data-testid': 'input', value: text, onChange: (event) => setText(event.target.value) }),
    h('button', { type: 'button', 'data-testid': 'send', onClick: send }, 'Send'),
    h('button', { type: 'button', 'data-testid': 'stop', onClick: () => void chat.stop() }, 'Stop'),
  );
}

/** The messages of the chat the query names, from the API; none for a new chat. */
async function storedMessages(id: string | undefined): Promise<UIMessage[]> {
  if (id === undefined) return [];
  const response = await fetch(`${api}/chat/${id}/messages`, { headers });
  if (!response.ok)
    throw new Error(`GET /chat/${id}/messages answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as UIMessage[];
}

const id = query.get('chat') ?? undefined;
const root = document.getElementById('root');
if (root === null) throw new Error('The page has no #root element to render the chat in.');
createRoot(root).render(h(ChatPage, { id, messages: await storedMessages(id) }));
