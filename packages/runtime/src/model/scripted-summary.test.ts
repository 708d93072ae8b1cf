import { describe, expect, it } from 'vitest';
import { scriptedSummary } from './scripted-summary.js';

const request = (messages: Array<{ role: 'user' | 'assistant'; content: string }>) => ({
  system: 'Summarize.',
  messages,
  step: 4,
  turnStep: 2,
  stopSequences: [],
  purpose: 'compaction' as const,
});

describe('scriptedSummary', () => {
  it('counts the messages and characters and quotes what the user asked, leaving results out', () => {
    const summary = scriptedSummary(
      request([
        { role: 'user', content: 'List the files\nin the repository.' },
        { role: 'assistant', content: '<execute>[{"name": "ls"}]</execute>' },
        { role: 'user', content: '<results>\na.txt\n</results>' },
        { role: 'user', content: 'Now read a.txt.' },
      ]),
    );
    expect(summary).toBe(
      'Summary by the scripted model of 4 messages (109 characters); the user asked: «List the files in the repository.», «Now read a.txt.».',
    );
  });

  it('quotes the first 80 characters of a message, and at most five messages', () => {
    const messages = Array.from({ length: 7 }, (_, index) => ({
      role: 'user' as const,
      content: `${index}${'x'.repeat(100)}`,
    }));
    const summary = scriptedSummary(request(messages));
    expect(summary).toContain(`«0${'x'.repeat(79)}»`);
    expect(summary).not.toContain('«5');
    expect(summary).toMatch(/ and 2 more\.$/);
  });

  it('is the same for the same request, and says so when the user asked nothing', () => {
    const messages = [{ role: 'assistant' as const, content: 'ok' }];
    expect(scriptedSummary(request(messages))).toBe(scriptedSummary(request(messages)));
    expect(scriptedSummary(request(messages))).toBe(
      'Summary by the scripted model of 1 messages (2 characters).',
    );
  });
});
