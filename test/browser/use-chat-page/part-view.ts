import { isReasoningUIPart, isTextUIPart, isToolUIPart, type UIMessage } from 'ai';
import { createElement as h, type ReactNode } from 'react';

/** One part of a message. */
export type Part = UIMessage['parts'][number];
/** Answers the approval of that id with a yes. */
export type Approve = (approval: string) => void;

/** One part as a line of text (`type: content`), with an Approve button while its call waits; none for step markers. */
export function partView(part: Part, key: number, approve: Approve): ReactNode {
  const line = (text: string, ...children: ReactNode[]) =>
    h('li', { key, 'data-testid': 'part' }, text, ...children);
  if (isTextUIPart(part)) return line(`text: ${part.text}`);
  if (isReasoningUIPart(part)) return line(`reasoning: ${part.text}`);
  if (isToolUIPart(part)) {
    const shown = part.state === 'output-available' ? part.output : (part.errorText ?? part.input);
    const text = `tool ${part.type === 'dynamic-tool' ? part.toolName : part.type} ${part.state}: ${JSON.stringify(shown)}`;
    if (part.state !== 'approval-requested') return line(text);
    const { id } = part.approval;
    return line(
      text,
      h('button', { type: 'button', 'data-testid': 'approve', onClick: () => approve(id) }, 'Approve'),
    );
  }
  return part.type === 'step-start' ? null : line(part.type);
}

/** The messages as a list, each a list of its parts (`partView`), for the test to read and press. */
export function messagesView(messages: readonly UIMessage[], approve: Approve): ReactNode {
  return h(
    'ol',
    null,
    messages.map((message) =>
      h(
        'li',
        { key: message.id, 'data-testid': 'message', 'data-role': message.role },
        h(
          'ul',
          null,
          message.parts.map((part, index) => partView(part, index, approve)),
        ),
      ),
    ),
  );
}
