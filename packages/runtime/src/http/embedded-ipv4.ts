const DOTTED_TAIL = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The eight 16-bit words of a valid IPv6 address (as `net.isIP` accepts it: `::` shorthand, a
 * dotted IPv4 tail, a zone id).
 */
export function ipv6Words(address: string): number[] {
  let text = address.split('%')[0] ?? '';
  const dotted = DOTTED_TAIL.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const words = (part: string | undefined) =>
    part ? part.split(':').map((word) => Number.parseInt(word, 16)) : [];
  const [head, tail] = text.split('::');
  if (tail === undefined) return words(head);
  const [before, after] = [words(head), words(tail)];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The IPv4 addresses an IPv6 address carries, by the forms that embed or translate one:
 * IPv4-mapped `::ffff:0:0/96`, IPv4-compatible `::/96`, IPv4-translated `::ffff:0:0:0/96`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16` and Teredo `2001::/32` (its server, and its client, stored
 * inverted).
 */
export function embeddedIpv4(address: string): string[] {
  const w = ipv6Words(address);
  const at = (index: number) => w[index] ?? 0;
  const zeros = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const found: string[] = [];
  if (zeros(0, 5) && (at(5) === 0xffff || at(5) === 0)) found.push(ipv4(at(6), at(7)));
  if (zeros(0, 4) && at(4) === 0xffff && at(5) === 0) found.push(ipv4(at(6), at(7)));
  if (at(0) === 0x64 && at(1) === 0xff9b && zeros(2, 6)) found.push(ipv4(at(6), at(7)));
  if (at(0) === 0x2002) found.push(ipv4(at(1), at(2)));
  if (at(0) === 0x2001 && at(1) === 0) found.push(ipv4(at(2), at(3)), ipv4(at(6) ^ 0xffff, at(7) ^ 0xffff));
  return found;
}
