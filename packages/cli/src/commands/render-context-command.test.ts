import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';

describe('agentstep render-context', () => {
  it('prints the goal document for a description on stdin, with no newline after it', async () => {
    const description = {
      render: 'goal',
      workflow: { name: 'w' },
      inputs: { x: 'it' },
      prior: [{ id: 'a', output: 'A </goal>', fields: { x: 'that' } }],
      current: { id: 'b', description: 'Do $x', outputs: ['f'] },
    };
    const io = memoryIo({ stdin: [JSON.stringify(description)] });
    expect(await main(['render-context'], io)).toBe(0);
    expect(io.out.join('')).toBe(
      [
        '<workflow name="w">',
        '',
        '<context>',
        '  <goal id="a">',
        'A &lt;/goal&gt;',
        '  </goal>',
        '',
        '</context>',
        '',
        '<current-goal id="b">',
        'Do that',
        '',
        'Return your response as JSON with the following fields: f',
        '</current-goal>',
        '',
        '</workflow>',
      ].join('\n'),
    );
    expect(io.err).toEqual([]);
  });

  it('reads a description split across stdin chunks and prints a task document', async () => {
    const description = JSON.stringify({
      render: 'task',
      workflow: { name: 'w' },
      task: { role: 'r', parent_goal: 'g', task: 'Go.', include_prior: false, interpolate: false },
      correction: { source: 'human', text: 'Faster.' },
    });
    const io = memoryIo({ stdin: [description.slice(0, 10), description.slice(10)] });
    expect(await main(['render-context'], io)).toBe(0);
    expect(io.out.join('')).toBe(
      [
        '<task role="r" parent-goal="g">',
        'Go.',
        '</task>',
        '',
        '<correction source="human">',
        'Faster.',
        '</correction>',
      ].join('\n'),
    );
  });

  it.each([
    [[], [], 'agentstep render-context: expects one JSON description on stdin, received nothing.'],
    [[], ['{"render": "goal",'], 'stdin is not valid JSON ('],
    [[], ['{"render": "goal",'], 'received "{\\"render\\": \\"goal\\","'],
    [[], ['[1, 2]'], 'received "[1, 2]"'],
    [[], ['[1, 2]'], 'expected object, received array'],
    [[], ['{"render": "goal", "workflow": {"name": "w"}}'], 'render "goal" needs "current"'],
    [[], ['{"render": "goal", "workflow": {"name": "w"}}'], '→ at current'],
    [
      [],
      ['{"render": "task", "workflow": {"name": 7}, "task": {}}'],
      'expected string, received number\n  → at workflow.name',
    ],
    [[], [`{"render": "page", "workflow": {"name": "${'w'.repeat(100)}"}}`], '… (144 characters)'],
    [['--pretty'], ['{}'], 'unknown option --pretty.'],
    [['extra'], ['{}'], 'Unexpected argument'],
  ])('exits 2 for args %j and stdin %j, saying %j', async (args, stdin, reason) => {
    const io = memoryIo({ stdin });
    expect(await main(['render-context', ...args], io)).toBe(2);
    expect(io.out).toEqual([]);
    expect(io.err.join('')).toContain(reason);
    expect(io.err.join('')).toContain('Run "agentstep --help" for usage.');
  });

  it('is listed in the usage', async () => {
    const io = memoryIo();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out.join('')).toContain('agentstep render-context < examples/goal-context.json');
  });
});
