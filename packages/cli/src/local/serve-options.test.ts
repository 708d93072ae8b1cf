import { describe, expect, it } from 'vitest';
import { parseServeOptions } from './serve-options.js';

describe('parseServeOptions', () => {
  it('takes its own flags, in both spellings, and passes the rest to the run options', () => {
    const options = parseServeOptions([
      '--port=0',
      '--host',
      '0.0.0.0',
      '--auth',
      'dev',
      '--script',
      's.json',
      '--sequential',
    ]);
    expect(options).toMatchObject({ port: 0, host: '0.0.0.0', auth: 'dev' });
    expect(options.agent).toMatchObject({ script: 's.json', sequential: true });
  });

  it('listens on 127.0.0.1:3000 for one tenant by default', () => {
    expect(parseServeOptions([])).toMatchObject({ port: 3000, host: '127.0.0.1', auth: 'none' });
  });

  it.each([
    [['hello'], 'serve takes no prompt ("hello"): send messages with POST /sessions.'],
    [['--session', 's1'], '--session applies to `agentstep run`, not to serve.'],
    [['--json'], '--json applies to `agentstep run`, not to serve.'],
    [['--port', '70000'], '--port must be 0 to 65535, received "70000".'],
    [['--port', '0x10'], '--port must be 0 to 65535, received "0x10".'],
    [['--auth', 'jwt'], '--auth must be "none" or "dev", received "jwt".'],
  ])('refuses %j: %s', (args, message) => {
    expect(() => parseServeOptions(args)).toThrow(message);
  });
});
