import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { jsonLines, runCli } from '../support/run-cli.js';

const ANSWER = 'Every check passed.';
let cwd = '';

/** A script file in the test's folder. */
function script(name: string, steps: string[]): string {
  writeFileSync(join(cwd, name), JSON.stringify(steps));
  return name;
}

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'agentstep-invoke-'));
  script('one.json', [batch(['echo', { text: 'x' }]), `${ANSWER}<end>`]);
  script('five.json', [1, 2, 3, 4].map((n) => batch(['echo', { text: `${n}` }])).concat(`${ANSWER}<end>`));
});

const invoke = (input: unknown, ...args: string[]) =>
  runCli(['invoke', '--input', JSON.stringify(input), ...args], '', cwd);

describe.skipIf(dynamoEndpoint === '')(
  'agentstep invoke: one execution, started as an AWS service would',
  () => {
    it('prints the execution output with the scripted answer; the same requestId twice runs one turn', () => {
      const input = { message: 'Nightly check', requestId: 'event-1' };
      const first = invoke(input, '--script', 'one.json');
      expect(first.status).toBe(0);
      const [output] = jsonLines(first.stdout);
      expect(output).toMatchObject({ status: 'done', answer: ANSWER, requestId: 'event-1' });
      const again = invoke(input, '--script', 'one.json');
      expect(again.status).toBe(0);
      expect(jsonLines(again.stdout)).toEqual([output]);
      const events = jsonLines(runCli(['events', String(output?.session), '--json'], '', cwd).stdout);
      expect(events.filter((event) => event.type === 'user')).toHaveLength(1);
    });

    it('with two steps per execution, a five-step turn still ends its first execution with the answer; --events prints its end event', () => {
      const args = ['--script', 'five.json', '--steps-per-execution', '2', '--events'];
      const { status, stdout } = invoke({ message: 'Go' }, ...args);
      expect(status).toBe(0);
      const [output, event, ...rest] = jsonLines(stdout);
      expect(output).toMatchObject({ status: 'done', answer: ANSWER });
      expect(event).toEqual({
        source: 'agentstep',
        detailType: 'Agent Turn Completed',
        detail: output,
        eventBusName: 'default',
      });
      expect(rest).toEqual([]);
    });

    it.each([
      [{ text: 'no message' }, 'message'],
      [{ message: 42 }, 'message: Invalid input: expected string'],
    ])('a bad input %j fails the execution (exit 1) naming the field', (input, field) => {
      const { status, stdout, stderr } = invoke(input, '--script', 'one.json');
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain('InvalidTurnRequest');
      expect(stderr).toContain(field);
    });

    it('refuses a missing or unreadable --input and a prompt before doing anything (exit 2)', () => {
      expect(runCli(['invoke'], '', cwd)).toMatchObject({
        status: 2,
        stderr: expect.stringContaining('--input'),
      });
      expect(runCli(['invoke', '--input', '{oops'], '', cwd)).toMatchObject({ status: 2 });
      expect(runCli(['invoke', '--input', '@missing.json'], '', cwd)).toMatchObject({ status: 2 });
      expect(runCli(['invoke', 'hello', '--input', '{}'], '', cwd)).toMatchObject({ status: 2 });
    });
  },
);
