import { blockJson } from '../context/block-json.js';
import { exampleArgs } from './example-args.js';
import type { ToolDescription } from './tool-description.js';

/** Options of {@link renderSystemPrompt}. */
export interface SystemPromptOptions {
  /** The tools this session offers, in the order to list them. */
  tools: readonly ToolDescription[];
  /** The agent's own instructions, placed before the protocol. */
  instructions?: string;
}

const PROTOCOL = `# How you work

You work in steps. In each step you may think, then either call tools or answer.

- Think privately inside <think>…</think>. The user never sees it.
- To call tools, write one <execute> block holding a JSON array of calls, then stop. Each call is
  {"name": "<tool>", "args": {…}} with args matching the tool's schema. Write strict JSON: double
  quotes, no comments, no trailing commas.
- Every call in one <execute> block runs at the same time. The results come back in a <results>
  message, one item per call, in the order of your calls: {"tool", "status": "success" or
  "failure", "content"}. A failed call does not stop the others; read its message and adapt.
- When a call needs another call's result, put it in a later step, after you have read that result.
- Your step ends at </execute>: write nothing after it. Never write <results> yourself.
- When you are done, answer the user in plain prose with no <execute> block. You may finish with <end>.`;

const NO_TOOLS = `# Tools

No tools are available in this session. Answer directly, without an <execute> block.`;

/**
 * The system prompt for a session: the agent's instructions, the protocol, every tool with its
 * arguments' JSON Schema, and examples that use only the listed tools. Deterministic for the same
 * input, so providers can cache it.
 */
export function renderSystemPrompt(options: SystemPromptOptions): string {
  const sections = [options.instructions?.trim(), PROTOCOL];
  if (options.tools.length === 0) sections.push(NO_TOOLS);
  else sections.push(renderTools(options.tools), renderExample(options.tools));
  return sections.filter((section) => section !== undefined && section !== '').join('\n\n');
}

function renderTools(tools: readonly ToolDescription[]): string {
  const entries = tools.map(
    (tool) =>
      `## ${tool.name}\n${tool.description.trim()}\nArguments (JSON Schema): ${JSON.stringify(tool.parameters)}`,
  );
  return ['# Tools', ...entries].join('\n\n');
}

function renderExample(tools: readonly ToolDescription[]): string {
  const [first, second = first] = tools as [ToolDescription, ...ToolDescription[]];
  const calls = [first, second].map((tool) => ({ name: tool.name, args: exampleArgs(tool.parameters) }));
  const results = calls.map(({ name }) => ({ tool: name, status: 'success', content: '…' }));
  return [
    '# Example',
    'A step that runs two independent calls at once:',
    `<think>These two calls do not depend on each other, so I run them together.</think>\n<execute>\n${blockJson(calls)}\n</execute>`,
    'The system answers with:',
    `<results>\n${blockJson(results)}\n</results>`,
    'Then you take the next step, or answer in prose when you have what you need.',
  ].join('\n\n');
}
