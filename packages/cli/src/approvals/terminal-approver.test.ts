import { PassThrough } from 'node:stream';
import type { ApprovalDecisionBody } from '@agentstep/protocol';
import { AlreadyDecidedError, ApprovalArgsInvalidError } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { TerminalApprover } from './terminal-approver.js';

const write = { id: 't.1.0', tool: 'write_file', args: { line: 'one' } };

/** An approver on in-memory streams: what it decided, what it wrote, and a way to type lines. */
function terminal(refuse: (body: ApprovalDecisionBody) => Error | undefined = () => undefined) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk) => {
    written += chunk;
  });
  const decided: Array<[string, ApprovalDecisionBody]> = [];
  const approver = new TerminalApprover(input, output, async (approval, body) => {
    const refusal = refuse(body);
    if (refusal) throw refusal;
    decided.push([approval, body]);
  });
  return {
    approver,
    decided,
    written: () => written,
    type: (...lines: string[]) => input.write(`${lines.join('\n')}\n`),
  };
}

describe('TerminalApprover', () => {
  it('approves on y, after asking with the tool and its arguments', async () => {
    const { approver, decided, written, type } = terminal();
    approver.onApprovalRequested(write);
    type('y');
    await approver.answered();
    expect(written()).toBe('Approve write_file {"line":"one"}? [y]es / [n]o / [e]dit: ');
    expect(decided).toEqual([['t.1.0', { decision: 'approve' }]]);
    approver.close();
  });

  it('denies on n with the reason typed next, or without one on an empty line', async () => {
    const { approver, decided, type } = terminal();
    approver.onApprovalRequested(write);
    approver.onApprovalRequested({ ...write, id: 't.1.1' });
    type('n', 'not that file', 'no', '');
    await approver.answered();
    expect(decided).toEqual([
      ['t.1.0', { decision: 'deny', reason: 'not that file' }],
      ['t.1.1', { decision: 'deny' }],
    ]);
    approver.close();
  });

  it('on e asks for new arguments again while they are not a JSON object, then approves with them', async () => {
    const { approver, decided, written, type } = terminal();
    approver.onApprovalRequested(write);
    type('e', '{"line": ', '["two"]', '{"line": "two"}');
    await approver.answered();
    expect(decided).toEqual([['t.1.0', { decision: 'approve', args: { line: 'two' } }]]);
    const asked = written().split('New arguments for write_file (a JSON object): ');
    expect(asked).toHaveLength(4);
    expect(asked[1]).toMatch(/^That is not JSON \(.+\)\.\n$/);
    expect(asked[2]).toBe('That is not a JSON object (received an array).\n');
    approver.close();
  });

  it('on e says why the tool refuses the arguments and asks again', async () => {
    const problems = [{ path: 'line', message: 'expected string, received number' }];
    const refusal = new ApprovalArgsInvalidError(
      'Invalid arguments for write_file: line: expected string',
      problems,
    );
    const { approver, decided, written, type } = terminal((body) =>
      body.args?.line === 2 ? refusal : undefined,
    );
    approver.onApprovalRequested(write);
    type('e', '{"line": 2}', '{"line": "2"}');
    await approver.answered();
    expect(written()).toContain('Invalid arguments for write_file: line: expected string\n');
    expect(decided).toEqual([['t.1.0', { decision: 'approve', args: { line: '2' } }]]);
    approver.close();
  });

  it('asks again after an answer that is not y, n or e', async () => {
    const { approver, decided, written, type } = terminal();
    approver.onApprovalRequested(write);
    type('maybe', 'yes');
    await approver.answered();
    expect(written()).toContain('Answer y, n or e.\n');
    expect(decided).toEqual([['t.1.0', { decision: 'approve' }]]);
    approver.close();
  });

  it('drops a question settled elsewhere, asked or queued, and says in one line when a decision is refused', async () => {
    const { approver, decided, written, type } = terminal(() => new AlreadyDecidedError('t.1.2', 'expired'));
    approver.onApprovalRequested(write);
    approver.onApprovalRequested({ ...write, id: 't.1.1' });
    approver.onApprovalRequested({ ...write, id: 't.1.2' });
    approver.onApprovalSettled('t.1.1');
    await new Promise((resolve) => setImmediate(resolve));
    approver.onApprovalSettled('t.1.0');
    type('y');
    await approver.answered();
    expect(decided).toEqual([]);
    expect(written().match(/Approve write_file/g)).toHaveLength(2);
    // The dropped question is erased at once; the terminal echoes the typed answer and its line break.
    const question = 'Approve write_file {"line":"one"}? [y]es / [n]o / [e]dit: ';
    expect(written()).toBe(
      `${question}\r\u001b[2K${question}Not decided: AlreadyDecided: Approval t.1.2 is already settled (expired): a call is decided once.\n`,
    );
    approver.close();
  });

  it('asks nothing once closed, and reads nothing before its first question', async () => {
    const { approver, decided, written } = terminal();
    approver.close();
    approver.onApprovalRequested(write);
    await approver.answered();
    expect(written()).toBe('');
    expect(decided).toEqual([]);
  });

  it('prints the view’s lines above the open question, and draws the question again below them', async () => {
    const { approver, written, type } = terminal();
    const io = memoryIo();
    const viewIo = approver.above({ ...io, stdout: (text) => io.stdout(text) });
    viewIo.stdout('  before any question\n');
    approver.onApprovalRequested(write);
    await new Promise((resolve) => setImmediate(resolve));
    viewIo.stdout('  ✓ #0 echo success\n');
    viewIo.stdout('a partial line');
    type('y');
    await approver.answered();
    expect(io.out).toEqual(['  before any question\n', '\r\u001b[2K  ✓ #0 echo success\n', 'a partial line']);
    const question = 'Approve write_file {"line":"one"}? [y]es / [n]o / [e]dit: ';
    expect(written()).toBe(`${question}${question}`);
    approver.close();
  });
});
