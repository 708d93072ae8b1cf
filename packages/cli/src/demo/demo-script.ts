/** What the scripted model writes at each step of the demo. */
export const DEMO_SCRIPT: readonly string[] = [
  [
    '<think>Three independent calls: run them in one batch. One of them is meant to fail.</think>',
    'Let me check three things at once.',
    '<execute>',
    '[',
    '  {"name": "echo", "args": {"text": "hello from a tool"}},',
    '  {"name": "sleep", "args": {"ms": 150, "value": "slept 150 ms"}},',
    '  {"name": "fail", "args": {"message": "this tool always fails"}}',
    ']',
    '</execute>',
  ].join('\n'),
  [
    '<think>Two calls succeeded and one failed, as expected; results came back in call order.</think>',
    'Done. echo said "hello from a tool", sleep returned "slept 150 ms",',
    'and fail reported "this tool always fails" without stopping the others.',
    '<end>',
  ].join('\n'),
];
