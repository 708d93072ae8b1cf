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
    expect(options).toMatchObject({ port: 0, host: '0.0.0.0', auth: { mode: 'dev' } });
    expect(options.agent).toMatchObject({ script: 's.json', sequential: true });
  });

  it("passes --context-window and --compaction to every turn's run options", () => {
    const options = parseServeOptions([
      '--port',
      '0',
      '--context-window',
      '64000',
      '--compaction',
      'summarize',
    ]);
    expect(options.agent.context).toEqual({ windowTokens: 64_000, strategy: 'summarize' });
    expect(() => parseServeOptions(['--context-window', 'big'])).toThrow(
      '--context-window must be a whole number, received "big".',
    );
  });

  it('listens on 127.0.0.1:3000 for one tenant by default, answering no other host names', () => {
    expect(parseServeOptions([])).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      allowedHosts: [],
      auth: { mode: 'none' },
    });
  });

  it('takes --allowed-hosts names, *. patterns and IP addresses, apart from the run options', () => {
    const options = parseServeOptions([
      '--allowed-hosts',
      'box.lan,*.dev.example,10.0.0.7,[::1]',
      '--fetch-hosts',
      'api.example.com',
    ]);
    expect(options.allowedHosts).toEqual(['box.lan', '*.dev.example', '10.0.0.7', '[::1]']);
    expect(options.agent.allowHosts).toEqual(['api.example.com']);
  });

  it('takes --cors origins exactly as a browser sends them; none by default', () => {
    expect(
      parseServeOptions(['--cors', 'https://app.example.com,http://localhost:5173']).corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(parseServeOptions([]).corsOrigins).toEqual([]);
  });

  it('checks JWTs of an issuer for an audience with --auth jwt; the console is that audience’s client by default', () => {
    const jwt = ['--auth', 'jwt', '--jwt-issuer', 'https://id.example.com/', '--jwt-audience', 'agentstep'];
    expect(parseServeOptions(jwt).auth).toEqual({
      mode: 'jwt',
      issuer: 'https://id.example.com/',
      audience: 'agentstep',
      consoleClientId: 'agentstep',
    });
    expect(parseServeOptions([...jwt, '--console-client-id', 'console']).auth).toMatchObject({
      consoleClientId: 'console',
    });
  });

  it.each([
    [['hello'], 'serve takes no prompt ("hello"): send messages with POST /sessions.'],
    [['--session', 's1'], '--session applies to `agentstep run`, not to serve.'],
    [['--json'], '--json applies to `agentstep run`, not to serve.'],
    [['--port', '70000'], '--port must be 0 to 65535, received "70000".'],
    [['--port', '0x10'], '--port must be 0 to 65535, received "0x10".'],
    [['--auth', 'basic'], '--auth must be "none", "dev" or "jwt", received "basic".'],
    [
      ['--allowed-hosts', 'box.lan:3000'],
      '--allowed-hosts takes host names (*.example.com for every name under example.com) or IP addresses, without a scheme or port; received "box.lan:3000".',
    ],
    [['--allowed-hosts', 'http://box.lan'], 'received "http://box.lan"'],
    [['--allowed-hosts', 'a.*.example'], 'received "a.*.example"'],
    [
      ['--cors', '*'],
      '--cors: "*" is no origin: list each origin (https://app.example.com): "*" is not allowed.',
    ],
    [
      ['--cors', 'https://app.example.com,https://app.example.com/'],
      '--cors: "https://app.example.com/" is no origin: an origin is scheme://host[:port] only: did you mean https://app.example.com?',
    ],
    [['--cors', 'localhost:5173'], '--cors: "localhost:5173" is no origin:'],
    [['--cors='], '--cors takes ORIGIN[,ORIGIN…], received none.'],
    [['--auth', 'jwt'], '--auth jwt needs --jwt-issuer URL and --jwt-audience AUDIENCE'],
    [
      ['--auth', 'jwt', '--jwt-issuer', 'id.example.com', '--jwt-audience', 'a'],
      '--jwt-issuer must be a URL, received "id.example.com".',
    ],
    [
      ['--auth', 'dev', '--jwt-issuer', 'https://id.example.com/'],
      '--jwt-issuer applies to --auth jwt only.',
    ],
    [
      ['--auth', 'jwt', '--jwt-issuer', 'http://id.example.com/', '--jwt-audience', 'a'],
      '--jwt-issuer must be https (http only on this machine: localhost, 127.0.0.1), received "http://id.example.com/".',
    ],
  ])('refuses %j: %s', (args, message) => {
    expect(() => parseServeOptions(args)).toThrow(message);
  });
});
