import { describe, expect, it } from 'vitest';
import { embeddedIpv4, ipv6Words } from './embedded-ipv4.js';
import { isBlockedAddress } from './is-blocked-address.js';

describe('isBlockedAddress', () => {
  it.each([
    ['IPv4-mapped, dotted', '::ffff:127.0.0.1'],
    ['IPv4-mapped, hex', '::ffff:7f00:1'],
    ['IPv4-mapped, private', '::ffff:10.0.0.1'],
    ['IPv4-compatible', '::127.0.0.1'],
    ['IPv4-compatible, hex metadata service', '::a9fe:a9fe'],
    ['IPv4-translated', '::ffff:0:127.0.0.1'],
    ['IPv4-translated, hex metadata service', '::ffff:0:a9fe:a9fe'],
    ['NAT64 loopback', '64:ff9b::127.0.0.1'],
    ['NAT64 metadata service, hex', '64:ff9b::a9fe:a9fe'],
    ['NAT64 private', '64:ff9b::10.0.0.1'],
    ['local-use NAT64, any address', '64:ff9b:1::8.8.8.8'],
    ['6to4 loopback', '2002:7f00:1::'],
    ['6to4 metadata service', '2002:a9fe:a9fe::1'],
    ['6to4 private', '2002:c0a8:101::'],
    ['Teredo with a loopback client', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['Teredo with a private server', '2001:0:a00:1::'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 documentation, 3fff::/20', '3fff::1'],
    ['IPv6 discard-only', '100::1'],
    ['IPv6 site-local', 'fec0::1'],
    ['link-local with a zone id', 'fe80::1%eth0'],
    ['IPv4 documentation', '192.0.2.1'],
    ['IPv4 documentation, TEST-NET-3', '203.0.113.5'],
    ['not an address', 'example.com'],
  ])('refuses %s (%s)', (_form, address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    ['public IPv4', '8.8.8.8'],
    ['public IPv4, example.com', '93.184.215.14'],
    ['public IPv6', '2606:4700:4700::1111'],
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
    ['NAT64 public', '64:ff9b::8.8.8.8'],
    ['6to4 public', '2002:808:808::1'],
    ['Teredo with a public server and client', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
  ])('lets %s through (%s)', (_form, address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('ipv6Words', () => {
  it.each([
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['1::', [1, 0, 0, 0, 0, 0, 0, 0]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['::ffff:1.2.3.4', [0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]],
    ['fe80::1%eth0', [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
  ])('reads %s', (address, words) => {
    expect(ipv6Words(address)).toEqual(words);
  });

  it('finds a Teredo client under its inversion', () => {
    expect(embeddedIpv4('2001:0:4136:e378:8000:63bf:80ff:fffe')).toEqual(['65.54.227.120', '127.0.0.1']);
  });
});
