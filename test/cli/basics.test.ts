import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { wireEventSchema } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../support/run-cli.js';

const example = readFileSync(new URL('../../examples/model-output.txt', import.meta.url), 'utf8');
const toolsFile = new URL('../../examples/tools.json', import.meta.url).pathname;

describe('agentstep (the real binary)', () => {
  it('parses the spec example: think, four calls with their edge cases, execute, nothing after', () => {
    const { status, stdout } = runCli(['parse'], example);
    expect(status).toBe(0);
    const events = jsonLines(stdout).map((line) => wireEventSchema.parse(line));
    expect(events.map((event) => event.type)).toEqual(['think', 'call', 'call', 'call', 'call', 'execute']);
    const args = events.flatMap((event) => (event.type === 'call' ? [JSON.parse(event.content).args] : []));
    expect(args[1].content).toBe('<html><body>Hello</body></html>');
    expect(args[2].content).toBe('Hello </write> world </execute> still inside');
    expect(args[3].cmd).toBe(`echo "hello" && echo 'world'`);
  });

  it('gives the same events at chunk sizes 1, 4 and 64 as whole', () => {
    const strip = (stdout: string) => jsonLines(stdout).map(({ timestamp: _, ...event }) => event);
    const whole = strip(runCli(['parse'], example).stdout);
    for (const size of ['1', '4', '64'])
      expect(strip(runCli(['parse', '--chunk-size', size], example).stdout)).toEqual(whole);
  });

  it('exits 0 on random bytes and prints valid events', () => {
    const { status, stdout, stderr } = runCli(
      ['parse', '--mode', 'token', '--chunk-size', '3'],
      randomBytes(4096),
    );
    expect(status).toBe(0);
    expect(stderr).toBe('');
    for (const line of jsonLines(stdout)) expect(wireEventSchema.safeParse(line).success).toBe(true);
  });

  it('prints the system prompt for a tools file', () => {
    const { status, stdout } = runCli(['prompt', '--tools', toolsFile]);
    expect(status).toBe(0);
    expect(stdout).toContain('## write\nWrites a file in the session workspace.');
  });

  it('explains a usage mistake on stderr with exit 2, without a stack trace', () => {
    const { status, stderr } = runCli(['parse', '--chunk-size', '-1']);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^agentstep parse: /);
    expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
