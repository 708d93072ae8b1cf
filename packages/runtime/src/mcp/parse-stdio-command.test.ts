import { describe, expect, it } from 'vitest';
import { parseStdioCommand } from './parse-stdio-command.js';

describe('parseStdioCommand', () => {
  it('splits words on spaces, keeping quoted spaces and quotes of the other kind', () => {
    expect(parseStdioCommand(`stdio:npx -y  @scope/server 'a b' "it's" x''y ""`)).toEqual({
      command: 'npx',
      args: ['-y', '@scope/server', 'a b', "it's", 'xy', ''],
    });
  });

  it('expands nothing, as no shell runs', () => {
    expect(parseStdioCommand('stdio:server $HOME ~ *.txt; rm')).toEqual({
      command: 'server',
      args: ['$HOME', '~', '*.txt;', 'rm'],
    });
  });

  it('refuses an open quote and a missing command', () => {
    expect(() => parseStdioCommand(`stdio:server 'a b`)).toThrow(
      `"stdio:server 'a b" leaves a ' quote open: close it.`,
    );
    expect(() => parseStdioCommand('stdio:  ')).toThrow(
      '"stdio:  " names no command: write stdio:COMMAND ARGS…',
    );
  });
});
