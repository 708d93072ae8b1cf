import { describe, expect, it } from 'vitest';
import { acceptsHost, type HostRule } from './accepts-host.js';

const PORT = 3000;
const arrival = { address: '127.0.0.1', port: PORT };
const loopback: HostRule = { listen: '127.0.0.1', allowed: [] };

describe('acceptsHost', () => {
  it.each([
    '127.0.0.1:3000',
    '127.0.0.1',
    'localhost:3000',
    'LOCALHOST:3000',
    '127.0.0.2:3000',
    '[::1]:3000',
    '[0:0:0:0:0:0:0:1]:3000',
  ])('listening on 127.0.0.1, answers Host %s (the address, localhost, the loopback addresses)', (host) => {
    expect(acceptsHost(host, loopback, arrival)).toBe(true);
  });

  it.each([
    ['a name of another site (DNS rebinding)', 'evil.example:3000'],
    ['a name of another site, without a port', 'evil.example'],
    ['a name that ends like localhost', 'evil.localhost.example:3000'],
    ['localhost with a trailing dot', 'localhost.:3000'],
    ['another port', '127.0.0.1:3001'],
    ['user info before the address', 'evil@127.0.0.1:3000'],
    ['an address that is no IPv6 one in brackets', '[127.0.0.1]:3000'],
    ['no Host', null],
    ['an empty Host', ''],
  ])('listening on 127.0.0.1, refuses %s', (_, host) => {
    expect(acceptsHost(host, loopback, arrival)).toBe(false);
  });

  it('answers the names of --allowed-hosts, and with *. the names under one', () => {
    const rule: HostRule = { listen: '127.0.0.1', allowed: ['agentstep.test', '*.dev.example'] };
    expect(acceptsHost('agentstep.test:3000', rule, arrival)).toBe(true);
    expect(acceptsHost('AgentStep.Test', rule, arrival)).toBe(true);
    expect(acceptsHost('a.dev.example:3000', rule, arrival)).toBe(true);
    expect(acceptsHost('dev.example:3000', rule, arrival)).toBe(false);
    expect(acceptsHost('evildev.example:3000', rule, arrival)).toBe(false);
    expect(acceptsHost('agentstep.test:80', rule, arrival)).toBe(false);
  });

  it('listening on ::1, answers [::1] and localhost', () => {
    const rule: HostRule = { listen: '::1', allowed: [] };
    const v6 = { address: '::1', port: PORT };
    expect(acceptsHost('[::1]:3000', rule, v6)).toBe(true);
    expect(acceptsHost('localhost:3000', rule, v6)).toBe(true);
    expect(acceptsHost('evil.example:3000', rule, v6)).toBe(false);
  });

  it('listening on another address, answers only it and --allowed-hosts, not localhost', () => {
    const rule: HostRule = { listen: '192.168.1.5', allowed: ['box.lan'] };
    const lan = { address: '192.168.1.5', port: PORT };
    expect(acceptsHost('192.168.1.5:3000', rule, lan)).toBe(true);
    expect(acceptsHost('box.lan:3000', rule, lan)).toBe(true);
    expect(acceptsHost('localhost:3000', rule, lan)).toBe(false);
    expect(acceptsHost('evil.example:3000', rule, lan)).toBe(false);
  });

  it.each(['0.0.0.0', '::'])(
    'listening on every interface (%s), answers the address a request arrived at and the loopback names',
    (listen) => {
      const rule: HostRule = { listen, allowed: [] };
      const lan = { address: '::ffff:192.168.1.5', port: PORT };
      expect(acceptsHost('192.168.1.5:3000', rule, lan)).toBe(true);
      expect(acceptsHost('localhost:3000', rule, lan)).toBe(true);
      expect(acceptsHost('192.168.1.6:3000', rule, lan)).toBe(false);
      expect(acceptsHost('box.lan:3000', rule, lan)).toBe(false);
    },
  );
});
