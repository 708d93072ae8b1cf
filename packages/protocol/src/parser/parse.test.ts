import { describe, expect, it } from 'vitest';
import { parse } from './parse.js';
import type { ParsedEvent } from './parsed-event.js';

const call = (name: string, args: Record<string, unknown>, index: number): ParsedEvent => ({
  type: 'call',
  content: JSON.stringify({ name, args }),
  payload: { index },
});
const respond = (content: string): ParsedEvent => ({ type: 'respond', content });
const think = (content: string): ParsedEvent => ({ type: 'think', content });
const execute: ParsedEvent = { type: 'execute' };
const end: ParsedEvent = { type: 'end' };

describe('parse', () => {
  it.each<[string, string, ParsedEvent[]]>([
    ['A1 exact markers', '<think>a</think>', [think('a')]],
    ['A1 case-sensitive', '<THINK>a</THINK>', [respond('<THINK>a</THINK>')]],
    ['A1 no attributes', '<think type="x">a</think>', [respond('<think type="x">a</think>')]],
    ['A1 no inner spaces', '< think>a</think >', [respond('< think>a</think >')]],
    ['A1 stray closer is text', 'a </execute> b', [respond('a </execute> b')]],
    ['A1 <end> is self-closing', 'done<end>', [respond('done'), end]],
  ])('%s', (_rule, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it.each<[string, string, ParsedEvent[]]>([
    ['A3 prose is respond', 'Hello there', [respond('Hello there')]],
    ['A3 whitespace-only prose is dropped', ' \n\t ', []],
    ['A3 prose is trimmed', '\n  Hello  \n', [respond('Hello')]],
    [
      'A3 events keep the order the model wrote them',
      'First <think>t1</think> second <think>t2</think> third',
      [respond('First'), think('t1'), respond('second'), think('t2'), respond('third')],
    ],
    [
      'A3 prose before a block is emitted before it',
      'Look:\n<think>x</think>',
      [respond('Look:'), think('x')],
    ],
  ])('%s', (_rule, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it.each<[string, string, ParsedEvent[]]>([
    ['A4 think is one trimmed event', '<think>\n  I need to read\n</think>', [think('I need to read')]],
    ['A4 blank think emits nothing', '<think> \n </think>ok', [respond('ok')]],
    [
      'A4 no nesting: first closer ends it',
      '<think>a <think>b</think> c</think>',
      [think('a <think>b'), respond('c</think>')],
    ],
    [
      'A4 other markers inside think are text',
      '<think>use <execute> later</think>',
      [think('use <execute> later')],
    ],
  ])('%s', (_rule, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it.each<[string, string, ParsedEvent[]]>([
    [
      'A5 plain JSON body',
      '<execute>\n[{"name": "read", "args": {"file": "a.txt"}}]\n</execute>',
      [call('read', { file: 'a.txt' }, 0), execute],
    ],
    [
      'A5 one code fence around the body is stripped',
      '<execute>\n```json\n[{"name": "read", "args": {}}]\n```\n</execute>',
      [call('read', {}, 0), execute],
    ],
    [
      'A5 a fence around the whole block is dropped',
      'Sure.\n```xml\n<think>go</think>\n```\n```\n<execute>[{"name": "a", "args": {}}]</execute>\n```',
      [respond('Sure.\n```xml'), think('go'), call('a', {}, 0), execute],
    ],
    [
      'A5 </execute> inside a JSON string does not close the block',
      '<execute>[{"name": "write", "args": {"content": "x </execute> y"}}]</execute>',
      [call('write', { content: 'x </execute> y' }, 0), execute],
    ],
    [
      'A5 escaped quotes keep the string open',
      '<execute>[{"name": "w", "args": {"c": "say \\"</execute>\\" now"}}]</execute>',
      [call('w', { c: 'say "</execute>" now' }, 0), execute],
    ],
    [
      'A5 HTML and closing tags in args',
      '<execute>[{"name": "write", "args": {"content": "<html></write></html>"}}]</execute>',
      [call('write', { content: '<html></write></html>' }, 0), execute],
    ],
  ])('%s', (_rule, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it('A5 NaN and Infinity are invalid JSON', () => {
    for (const body of ['[NaN]', '[{"name": "a", "args": {"n": Infinity}}]']) {
      const [error, last] = parse(`<execute>${body}</execute>`);
      expect(error).toMatchObject({ type: 'error', content: expect.stringContaining('not valid JSON') });
      expect(error).not.toHaveProperty('payload');
      expect(last).toEqual(execute);
    }
  });

  it('A6 an invalid element keeps its position and the valid ones still become calls', () => {
    const events = parse(
      '<execute>[{"name": "a", "args": {}}, {"name": "b"}, 7, {"name": "c", "args": {"x": 1}}]</execute>',
    );
    expect(events.map((event) => event.type)).toEqual(['call', 'error', 'error', 'call', 'execute']);
    expect(events[0]).toEqual(call('a', {}, 0));
    expect(events[1]).toMatchObject({ payload: { index: 1, element: '{"name":"b"}' } });
    expect(events[1]).toMatchObject({ content: expect.stringContaining('"args" of "b" must be an object') });
    expect(events[2]).toMatchObject({ payload: { index: 2, element: '7' } });
    expect(events[3]).toEqual(call('c', { x: 1 }, 3));
  });

  it.each([
    ['A6 empty name', '[{"name": "", "args": {}}]', '"name" must be a non-empty string'],
    ['A6 missing name', '[{"args": {}}]', '"name" must be a non-empty string'],
    ['A6 args is null', '[{"name": "a", "args": null}]', '"args" of "a" must be an object, received null'],
    ['A6 args is an array', '[{"name": "a", "args": [1]}]', 'must be an object, received an array'],
  ])('%s is an indexed error', (_rule, body, message) => {
    const [error] = parse(`<execute>${body}</execute>`);
    expect(error).toMatchObject({
      type: 'error',
      payload: { index: 0 },
      content: expect.stringContaining(message),
    });
  });

  it('A6 extra keys on an element are ignored', () => {
    expect(parse('<execute>[{"name": "a", "args": {}, "id": 3}]</execute>')).toEqual([
      call('a', {}, 0),
      execute,
    ]);
  });

  it.each([
    ['A6 body is not JSON', '<execute>read the file</execute>', 'not valid JSON'],
    [
      'A6 body is an object',
      '<execute>{"name": "a", "args": {}}</execute>',
      'must be a JSON array; received an object',
    ],
    ['A6 body is empty', '<execute></execute>', 'not valid JSON'],
  ])('%s: one unindexed error that shows the expected shape, then execute', (_rule, input, message) => {
    const events = parse(input);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ type: 'error', content: expect.stringContaining(message) });
    expect(events[0]).toMatchObject({ content: expect.stringContaining('[{"name": "tool_name", "args":') });
    expect(events[0]).not.toHaveProperty('payload');
    expect(events[1]).toEqual(execute);
  });

  it.each<[string, string, ParsedEvent[]]>([
    [
      'A7 everything after </execute> is discarded',
      '<execute>[{"name": "a", "args": {}}]</execute> then <results>[]</results> text <end> <think>x</think>',
      [call('a', {}, 0), execute],
    ],
    [
      'A7 an invalid batch also ends the step',
      '<execute>oops</execute> more prose',
      [expect.anything(), execute],
    ],
    [
      'A7 only the first execute block counts',
      '<execute>[{"name": "a", "args": {}}]</execute><execute>[{"name": "b", "args": {}}]</execute>',
      [call('a', {}, 0), execute],
    ],
  ])('%s', (_rule, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it.each<[string, string, ParsedEvent[]]>([
    ['A8 a model-written results block is discarded', '<results>[{"tool": "a"}]</results>', []],
    ['A8 the prose around it is kept', 'Before\n<results>[]</results>\nafter', [respond('Before\n\nafter')]],
  ])('%s', (_rule, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it.each<[string, string, ParsedEvent[]]>([
    [
      'A9 <end> ends the turn and discards the rest',
      'Done.<end> ignored <think>x</think>',
      [respond('Done.'), end],
    ],
    ['A9 a reply without execute has no calls', 'The answer is 4.', [respond('The answer is 4.')]],
    ['A9 an empty batch has no calls', '<execute>[]</execute>', [execute]],
  ])('%s', (_rule, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it.each<[string, string, ParsedEvent[]]>([
    [
      'A10 an unclosed opener in prose is literal',
      'Use the <execute> tag. <think>x</think>',
      [respond('Use the <execute> tag.'), think('x')],
    ],
    ['A10 an unclosed think is prose', '<think>never closed', [respond('<think>never closed')]],
    [
      'A10 parsing resumes right after the literal opener',
      '<think>plan <execute>[{"name": "a", "args": {}}]</execute>',
      [respond('<think>plan'), call('a', {}, 0), execute],
    ],
    [
      'A10 an execute left open inside a string',
      '<execute>[{"name": "a", "args": {"s": "</execute>',
      [respond('<execute>[{"name": "a", "args": {"s": "</execute>')],
    ],
    [
      'A10 many unclosed openers',
      '<think><think><results><execute>',
      [respond('<think><think><results><execute>')],
    ],
    ['A10 a partial marker at the end is text', 'almost <exec', [respond('almost <exec')]],
  ])('%s', (_rule, input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it('A10 an unclosed execute opener can still be followed by a real block', () => {
    const input = '<execute>"<execute>[{"name": "a", "args": {}}]</execute>';
    expect(parse(input)).toEqual([respond('<execute>"'), call('a', {}, 0), execute]);
  });
});

// Big inputs: seconds on a loaded machine, not the default 5 s test timeout (speed is measured by `npm run bench`).
describe('parse on hostile sizes (never throws)', { timeout: 60_000 }, () => {
  it('gives a batch-level error for arguments nested 100,000 deep', () => {
    const events = parse(
      `<execute>[{"name": "a", "args": {"x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}]</execute>`,
    );
    expect(events.map((event) => event.type)).toEqual(['error', 'execute']);
  });

  it('gives a batch-level error for an array of 1,000,000 calls', () => {
    const body = JSON.stringify(Array.from({ length: 1_000_000 }, () => ({ name: 'echo', args: {} })));
    const events = parse(`<execute>${body}</execute>`);
    expect(events.map((event) => event.type)).toEqual(['error', 'execute']);
    expect(events[0]).toMatchObject({ content: expect.stringContaining('has 1000000 calls') });
  });

  it('gives one event per block for 1,000,000 <think> blocks', () => {
    const events = parse('<think>a</think>'.repeat(1_000_000));
    expect(events).toHaveLength(1_000_000);
    expect(events.at(-1)).toEqual(think('a'));
  });

  it('strips a fence around a megabyte of spaces', () => {
    const events = parse(
      `<execute>\`\`\`json\n[{"name": "echo", "args": {}}]${' '.repeat(1_000_000)}\n\`\`\`</execute>`,
    );
    expect(events).toEqual([call('echo', {}, 0), execute]);
  });
});
