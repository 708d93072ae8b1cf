import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool } from './define-tool.js';
import { validateArgs } from './validate-args.js';

const read = defineTool({
  name: 'read',
  description: 'Reads lines of a file.',
  input: z.object({
    file: z.string(),
    lines: z.number().int().min(1).optional(),
    note: z.string().nullable().optional(),
  }),
  handler: () => '',
});

describe('validateArgs', () => {
  it.each([
    ['B1 valid arguments pass through', { file: 'a.txt', lines: 3 }, { file: 'a.txt', lines: 3 }],
    ['B1 null for an optional field counts as absent', { file: 'a.txt', lines: null }, { file: 'a.txt' }],
    ['B1 a nullable field keeps its null', { file: 'a.txt', note: null }, { file: 'a.txt', note: null }],
  ])('%s', (_rule, args, expected) => {
    expect(validateArgs(read, args)).toEqual({ ok: true, args: expected });
  });

  it.each([
    [
      'B1 lists every problem',
      { file: 7, lines: 0 },
      'Invalid arguments for read: file: expected string, received number; lines: Too small',
    ],
    ['B1 a missing required field', {}, 'file: required'],
    ['B1 null for a required field is missing', { file: null }, 'file: required'],
    [
      'B1 unknown keys are named with the real signature',
      { file: 'a', mode: 'r' },
      'unknown argument mode (arguments: file, lines, note)',
    ],
    [
      'B2 identity keys are refused',
      { file: 'a', session_id: 's1', userId: 'u' },
      'session_id, userId: identity is supplied by the runtime',
    ],
  ])('%s', (_rule, args, message) => {
    const check = validateArgs(read, args);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.message).toContain(message);
  });
});

describe('defineTool', () => {
  it('B2 refuses a schema that declares an identity argument', () => {
    expect(() =>
      defineTool({
        name: 'whoami',
        description: 'x',
        input: z.object({ tenantId: z.string() }),
        handler: () => 1,
      }),
    ).toThrow('identity comes from the call context');
  });

  it('refuses a name the protocol cannot carry', () => {
    expect(() =>
      defineTool({ name: 'my tool', description: 'x', input: z.object({}), handler: () => 1 }),
    ).toThrow('must be 1–64 letters');
  });
});
