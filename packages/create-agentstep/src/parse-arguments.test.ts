import { describe, expect, it } from 'vitest';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

describe('parseArguments', () => {
  it.each([
    [['my-agent'], { directory: 'my-agent' }],
    [['my-agent', '--packages', '/tmp/pack'], { directory: 'my-agent', packages: '/tmp/pack' }],
    [['--packages=out', 'my-agent'], { directory: 'my-agent', packages: 'out' }],
    [['my-agent', '--help'], 'help'],
    [['-h'], 'help'],
  ])('reads %j', (argv, expected) => {
    expect(parseArguments(argv)).toEqual(expected);
  });

  it.each([
    [[], /Give the folder to create/],
    [['a', 'b'], /One folder only: received "a" and "b"/],
    [['my-agent', '--force'], /Unknown option "--force"/],
    [['my-agent', '--packages'], /--packages needs a folder/],
    [['my-agent', '--packages='], /--packages needs a folder/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });
});
