import type { UseChatHelpers } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { createElement as h, type ReactNode, useState } from 'react';
import { type Approve, messagesView } from './part-view.js';

/** What the README's `useChat` snippet takes out of the chat, handed to the view as it is. */
export type ReadmeChat = Pick<
  UseChatHelpers<UIMessage>,
  'messages' | 'sendMessage' | 'addToolApprovalResponse' | 'stop' | 'status'
>;

/**
 * The page around the README's snippet: its status and messages (each part a line of text, an
 * Approve button while a call waits), a box to send with, and Stop; the test reads and presses them.
 */
export function ReadmeChatView({
  messages,
  sendMessage,
  addToolApprovalResponse,
  stop,
  status,
}: ReadmeChat): ReactNode {
  const [text, setText] = useState('');
  const approve: Approve = (id) => void addToolApprovalResponse({ id, approved: true });
  return h(
    'main',
    null,
    h('output', { 'data-testid': 'status' }, status),
    messagesView(messages, approve),
    h('input', { 'data-testid': 'input', value: text, onChange: (event) => setText(event.target.value) }),
    h('button', { type: 'button', 'data-testid': 'send', onClick: () => void sendMessage({ text }) }, 'Send'),
    h('button', { type: 'button', 'data-testid': 'stop', onClick: () => void stop() }, 'Stop'),
  );
}
