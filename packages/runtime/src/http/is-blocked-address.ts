import { BlockList, isIP } from 'node:net';
import { embeddedIpv4 } from './embedded-ipv4.js';

const blockedIpv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the instance metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blockedIpv4.addSubnet(network, prefix, 'ipv4');
}

const blockedIpv6 = new BlockList();
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64: translates to addresses of the local network
  ['100::', 64], // discard-only
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing identifiers
  ['fc00::', 7], // unique local, including the metadata service fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blockedIpv6.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether an address is one a tool must never reach: loopback, private, link-local (the cloud
 * metadata service), carrier-grade NAT, multicast, documentation or otherwise reserved, in IPv4
 * or IPv6, including every IPv6 form that embeds or translates an IPv4 address (mapped,
 * compatible, translated, NAT64, 6to4, Teredo), judged by the IPv4 address it carries.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedIpv4.check(address, 'ipv4');
  if (family !== 6) return true;
  if (blockedIpv6.check(address, 'ipv6')) return true;
  return embeddedIpv4(address).some((ipv4) => blockedIpv4.check(ipv4, 'ipv4'));
}
