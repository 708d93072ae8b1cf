/** The README's heading above the `useChat` snippet. */
const SECTION = '#### useChat (the AI SDK)';

/**
 * The source of a page that runs the README's `useChat` snippet verbatim: the snippet's imports at
 * the top, its other lines as the body of a React component that hands what `useChat` returned to
 * `ReadmeChatView` (readme-chat-view.ts). Bundled from this folder, as page.ts is.
 */
export function readmeChatPage(readme: string): string {
  const section = readme.indexOf(SECTION);
  const block = /^```tsx\n([\s\S]*?)^```$/m.exec(readme.slice(section))?.[1];
  if (section < 0 || block === undefined)
    throw new Error(`README.md has no \`\`\`tsx block under "${SECTION}": the test runs that snippet.`);
  const lines = block.split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  const body = lines.filter((line) => !line.startsWith('import '));
  return [
    ...imports,
    "import { createElement } from 'react';",
    "import { createRoot } from 'react-dom/client';",
    "import { ReadmeChatView } from './readme-chat-view.js';",
    'function ReadmeChat() {',
    ...body,
    '  return createElement(ReadmeChatView, { messages, sendMessage, addToolApprovalResponse, stop, status });',
    '}',
    "createRoot(document.getElementById('root') as HTMLElement).render(createElement(ReadmeChat));",
  ].join('\n');
}
