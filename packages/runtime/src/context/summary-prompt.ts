/**
 * The system prompt of a compaction's summary request (decision 0035): what a summary must keep for
 * the agent to carry on from it alone, and how long it may be.
 */
export function summaryPrompt(maxWords: number): string {
  return [
    'You compact the context of an AI agent that works in turns with a user and calls tools.',
    'You are given the summary of what came before (if any) and the next part of the conversation.',
    'Write one new summary that replaces both: the agent will continue the work from your summary and the newest messages alone.',
    '',
    'Keep:',
    "- what the user asked for and still wants, in the user's own words where they are short;",
    '- decisions made and why, and constraints the user set;',
    '- facts learned from tool results that later steps may need: names, ids, paths, numbers, errors;',
    '- what is done, what is under way, and what remains to do;',
    '- open questions.',
    'Leave out greetings, repetition, and raw tool output no later step needs.',
    '',
    `Write plain prose and short lists, at most ${maxWords} words. Write only the summary: no preamble, no tool calls, no XML tags.`,
  ].join('\n');
}

/** The user message of a summary request: the summary so far, then the part to fold into it. */
export function summaryRequestText(previous: string | undefined, transcript: string): string {
  const before = previous === undefined ? '(none: this is the start of the session)' : previous;
  return `Summary so far:\n${before}\n\nNext part of the conversation:\n${transcript}\n\nWrite the new summary.`;
}
