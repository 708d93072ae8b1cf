import { describe, expect, it } from 'vitest';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';

const ANSWER = 'Every check passed.';
const echoStep = (text: string) => `<execute>[{"name": "echo", "args": {"text": "${text}"}}]</execute>`;
const SCRIPTS = {
  'one.json': JSON.stringify([echoStep('x'), `${ANSWER}<end>`]),
  'five.json': JSON.stringify([...['1', '2', '3', '4'].map(echoStep), `${ANSWER}<end>`]),
};

describe('agentstep invoke: one execution, started as an AWS service would', () => {
  it('prints the execution output with the scripted answer; the same requestId twice runs one turn', async () => {
    const project = memoryProject({ ...SCRIPTS });
    const input = JSON.stringify({ message: 'Nightly check', requestId: 'event-1' });
    const invoke = () => project.run(['invoke', '--input', input, '--script', 'one.json']);
    const first = await invoke();
    expect(first.status).toBe(0);
    const [output] = jsonLines(first.stdout);
    expect(output).toMatchObject({ status: 'done', answer: ANSWER, requestId: 'event-1' });
    const again = await invoke();
    expect(again.status).toBe(0);
    expect(jsonLines(again.stdout)).toEqual([output]);
    const events = jsonLines((await project.run(['events', String(output?.session), '--json'])).stdout);
    expect(events.filter((event) => event.type === 'user')).toHaveLength(1);
  });

  it('with two steps per execution, a five-step turn still ends its first execution with the answer; --events prints its end event', async () => {
    const { status, stdout } = await memoryProject({ ...SCRIPTS }).run([
      ...['invoke', '--input', '{"message": "Go"}', '--script', 'five.json'],
      ...['--steps-per-execution', '2', '--events'],
    ]);
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
  ])('a bad input %j fails the execution (exit 1) naming the field', async (input, field) => {
    const args = ['invoke', '--input', JSON.stringify(input), '--script', 'one.json'];
    const { status, stdout, stderr } = await memoryProject({ ...SCRIPTS }).run(args);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('InvalidTurnRequest');
    expect(stderr).toContain(field);
  });

  it.each([
    [['invoke'], '--input'],
    [['invoke', '--input', '{oops'], '--input is not JSON'],
    [['invoke', '--input', '@missing.json'], '--input @missing.json: no such file can be read'],
    [['invoke', 'hello', '--input', '{}'], 'put the message in --input'],
  ])('refuses %j before doing anything (exit 2)', async (args, reason) => {
    const { status, stdout, stderr } = await memoryProject().run(args);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(reason);
  });
});
