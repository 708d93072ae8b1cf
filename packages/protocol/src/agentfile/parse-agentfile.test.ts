import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENTFILE_KEYWORDS } from './agentfile-token.js';
import { type AgentfileProblem, formatAgentfileProblem } from './format-agentfile-problem.js';
import { parseAgentfile } from './parse-agentfile.js';
import { type WorkflowSpec, workflowSpecSchema } from './workflow-spec.js';

const FILES: Record<string, string> = {
  'prompts/writer.md': 'You write essays.\n',
  'goals/write.md': 'Write the essay from the outline.',
};

function readFile(path: string): string {
  const text = FILES[path];
  if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
  return text;
}

/** The spec of an Agentfile that must parse; its problems as the failure otherwise. */
function specOf(source: string): WorkflowSpec {
  const result = parseAgentfile(source, { readFile });
  if (!result.ok) throw new Error(result.errors.map((problem) => formatAgentfileProblem(problem)).join('\n'));
  return result.spec;
}

function errorsOf(source: string): AgentfileProblem[] {
  const result = parseAgentfile(source, { readFile });
  return result.ok ? [] : result.errors;
}

/** Every statement and modifier of the language, in one workflow. */
const EXAMPLE = `# An essay pipeline: every statement and modifier of the language.
SUPERVISED

NAME essay-pipeline
INPUT topic
INPUT audience DEFAULT "general readers"
INPUT rounds DEFAULT 3
INPUT tone DEFAULT calm INPUT length DEFAULT 800

AGENT writer FROM prompts/writer.md -> draft, title REQUIRES "smart"
AGENT critic """
  You are a critic of $topic.
  Say "CONVERGED" when # nothing is left.
""" -> notes SUPERVISED HUMAN
AGENT fact-checker "You check facts.\\n\\tCite sources." UNSUPERVISED

GOAL outline "Outline an essay on $topic for $audience." -> sections
GOAL write FROM goals/write.md -> body USING writer SUPERVISED   # the writer drafts
CONVERGE polish "Polish until nothing changes." USING critic, fact-checker WITHIN $rounds SUPERVISED HUMAN
CONVERGE tighten "Tighten it." -> score WITHIN 2 UNSUPERVISED
GOAL goal "A goal named goal: keywords are upper-case." USING writer

RUN draft-it USING outline, write
LOOP refine USING polish, tighten WITHIN $score
RUN finish USING goal, goal SUPERVISED HUMAN
RUN quick USING goal UNSUPERVISED
`;

const EXAMPLE_SPEC: WorkflowSpec = {
  name: 'essay-pipeline',
  supervision: 'supervised',
  inputs: [
    { name: 'topic' },
    { name: 'audience', default: 'general readers' },
    { name: 'rounds', default: '3' },
    { name: 'tone', default: 'calm' },
    { name: 'length', default: '800' },
  ],
  agents: [
    { name: 'writer', prompt: 'You write essays.\n', outputs: ['draft', 'title'], requires: 'smart' },
    {
      name: 'critic',
      prompt: '  You are a critic of $topic.\n  Say "CONVERGED" when # nothing is left.',
      outputs: ['notes'],
      supervision: 'human',
    },
    {
      name: 'fact-checker',
      prompt: 'You check facts.\n\tCite sources.',
      outputs: [],
      supervision: 'unsupervised',
    },
  ],
  goals: [
    {
      name: 'outline',
      kind: 'goal',
      description: 'Outline an essay on $topic for $audience.',
      outputs: ['sections'],
      using: [],
    },
    {
      name: 'write',
      kind: 'goal',
      description: 'Write the essay from the outline.',
      outputs: ['body'],
      using: ['writer'],
      supervision: 'supervised',
    },
    {
      name: 'polish',
      kind: 'converge',
      description: 'Polish until nothing changes.',
      outputs: [],
      using: ['critic', 'fact-checker'],
      within: { variable: 'rounds' },
      supervision: 'human',
    },
    {
      name: 'tighten',
      kind: 'converge',
      description: 'Tighten it.',
      outputs: ['score'],
      using: [],
      within: 2,
      supervision: 'unsupervised',
    },
    {
      name: 'goal',
      kind: 'goal',
      description: 'A goal named goal: keywords are upper-case.',
      outputs: [],
      using: ['writer'],
    },
  ],
  steps: [
    { kind: 'run', name: 'draft-it', goals: ['outline', 'write'] },
    { kind: 'loop', name: 'refine', goals: ['polish', 'tighten'], within: { variable: 'score' } },
    { kind: 'run', name: 'finish', goals: ['goal', 'goal'], supervision: 'human' },
    { kind: 'run', name: 'quick', goals: ['goal'], supervision: 'unsupervised' },
  ],
};

describe('parseAgentfile', () => {
  it('parses an Agentfile that uses every statement and modifier', () => {
    expect(parseAgentfile(EXAMPLE, { readFile })).toEqual({ ok: true, spec: EXAMPLE_SPEC });
  });

  it('returns a spec the schema accepts unchanged', () => {
    expect(workflowSpecSchema.parse(specOf(EXAMPLE))).toEqual(EXAMPLE_SPEC);
  });

  it.each<[string, string, Partial<WorkflowSpec>]>([
    ['NAME', 'NAME w\nGOAL g "d"\nRUN r USING g', { name: 'w' }],
    ['NAME with an upper-case name', 'NAME API\nGOAL g "d"\nRUN r USING g', { name: 'API' }],
    ['INPUT', 'NAME w\nINPUT topic\nGOAL g "d"\nRUN r USING g', { inputs: [{ name: 'topic' }] }],
    [
      'INPUT DEFAULT with a string',
      'NAME w\nINPUT topic DEFAULT "a \\"b\\""\nGOAL g "d"\nRUN r USING g',
      { inputs: [{ name: 'topic', default: 'a "b"' }] },
    ],
    [
      'INPUT DEFAULT with a number',
      'NAME w\nINPUT n DEFAULT 007\nGOAL g "d"\nRUN r USING g',
      { inputs: [{ name: 'n', default: '007' }] },
    ],
    [
      'INPUT DEFAULT with a name',
      'NAME w\nINPUT m DEFAULT fast\nGOAL g "d"\nRUN r USING g',
      { inputs: [{ name: 'm', default: 'fast' }] },
    ],
    [
      'INPUT DEFAULT with a triple-quoted string',
      'NAME w\nINPUT m DEFAULT """\ntwo\nlines\n"""\nGOAL g "d"\nRUN r USING g',
      { inputs: [{ name: 'm', default: 'two\nlines' }] },
    ],
    [
      'AGENT',
      'NAME w\nAGENT a "You help."\nGOAL g "d" USING a\nRUN r USING g',
      { agents: [{ name: 'a', prompt: 'You help.', outputs: [] }] },
    ],
    [
      'AGENT ->',
      'NAME w\nAGENT a "p" -> x, y\nGOAL g "d" USING a\nRUN r USING g',
      { agents: [{ name: 'a', prompt: 'p', outputs: ['x', 'y'] }] },
    ],
    [
      'AGENT REQUIRES',
      'NAME w\nAGENT a "p" REQUIRES "fast model"\nGOAL g "d" USING a\nRUN r USING g',
      { agents: [{ name: 'a', prompt: 'p', outputs: [], requires: 'fast model' }] },
    ],
    [
      'AGENT SUPERVISED',
      'NAME w\nAGENT a "p" SUPERVISED\nGOAL g "d" USING a\nRUN r USING g',
      { agents: [{ name: 'a', prompt: 'p', outputs: [], supervision: 'supervised' }] },
    ],
    [
      'AGENT SUPERVISED HUMAN',
      'NAME w\nAGENT a "p" SUPERVISED HUMAN\nGOAL g "d" USING a\nRUN r USING g',
      { agents: [{ name: 'a', prompt: 'p', outputs: [], supervision: 'human' }] },
    ],
    [
      'AGENT UNSUPERVISED',
      'NAME w\nAGENT a "p" UNSUPERVISED\nGOAL g "d" USING a\nRUN r USING g',
      { agents: [{ name: 'a', prompt: 'p', outputs: [], supervision: 'unsupervised' }] },
    ],
    [
      'AGENT with every clause',
      'NAME w\nAGENT a "p" -> x REQUIRES "m" SUPERVISED HUMAN\nGOAL g "d" USING a\nRUN r USING g',
      { agents: [{ name: 'a', prompt: 'p', outputs: ['x'], requires: 'm', supervision: 'human' }] },
    ],
    [
      'GOAL',
      'NAME w\nGOAL g "Do it."\nRUN r USING g',
      { goals: [{ name: 'g', kind: 'goal', description: 'Do it.', outputs: [], using: [] }] },
    ],
    [
      'GOAL -> and USING',
      'NAME w\nAGENT a "p"\nAGENT b "p"\nGOAL g "d" -> f1, f2 USING a, b\nRUN r USING g',
      { goals: [{ name: 'g', kind: 'goal', description: 'd', outputs: ['f1', 'f2'], using: ['a', 'b'] }] },
    ],
    [
      'GOAL SUPERVISED',
      'NAME w\nGOAL g "d" SUPERVISED\nRUN r USING g',
      { goals: [expect.objectContaining({ supervision: 'supervised' })] },
    ],
    [
      'GOAL SUPERVISED HUMAN',
      'NAME w\nGOAL g "d" USING a SUPERVISED HUMAN\nAGENT a "p"\nRUN r USING g',
      { goals: [expect.objectContaining({ using: ['a'], supervision: 'human' })] },
    ],
    [
      'GOAL UNSUPERVISED',
      'NAME w\nGOAL g "d" UNSUPERVISED\nRUN r USING g',
      { goals: [expect.objectContaining({ supervision: 'unsupervised' })] },
    ],
    [
      'CONVERGE WITHIN a number',
      'NAME w\nCONVERGE c "d" WITHIN 5\nRUN r USING c',
      { goals: [{ name: 'c', kind: 'converge', description: 'd', outputs: [], using: [], within: 5 }] },
    ],
    [
      'CONVERGE WITHIN an input',
      'NAME w\nINPUT max DEFAULT 4\nCONVERGE c "d" WITHIN $max\nRUN r USING c',
      { goals: [expect.objectContaining({ within: { variable: 'max' } })] },
    ],
    [
      'CONVERGE WITHIN an output field',
      'NAME w\nGOAL plan "d" -> rounds\nCONVERGE c "d" WITHIN $rounds\nRUN r USING plan, c',
      { goals: [expect.anything(), expect.objectContaining({ within: { variable: 'rounds' } })] },
    ],
    [
      'CONVERGE with every clause',
      'NAME w\nAGENT a "p"\nCONVERGE c "d" -> f USING a WITHIN 2 SUPERVISED HUMAN\nRUN r USING c',
      {
        goals: [
          {
            name: 'c',
            kind: 'converge',
            description: 'd',
            outputs: ['f'],
            using: ['a'],
            within: 2,
            supervision: 'human',
          },
        ],
      },
    ],
    [
      'RUN with goals in order, one named twice',
      'NAME w\nGOAL a "d"\nGOAL b "d"\nRUN r USING b, a, b',
      { steps: [{ kind: 'run', name: 'r', goals: ['b', 'a', 'b'] }] },
    ],
    [
      'RUN SUPERVISED',
      'NAME w\nGOAL g "d"\nRUN r USING g SUPERVISED',
      { steps: [{ kind: 'run', name: 'r', goals: ['g'], supervision: 'supervised' }] },
    ],
    [
      'RUN SUPERVISED HUMAN',
      'NAME w\nGOAL g "d"\nRUN r USING g SUPERVISED HUMAN',
      { steps: [{ kind: 'run', name: 'r', goals: ['g'], supervision: 'human' }] },
    ],
    [
      'RUN UNSUPERVISED',
      'NAME w\nGOAL g "d"\nRUN r USING g UNSUPERVISED',
      { steps: [{ kind: 'run', name: 'r', goals: ['g'], supervision: 'unsupervised' }] },
    ],
    [
      'LOOP',
      'NAME w\nGOAL g "d"\nLOOP l USING g WITHIN 3',
      { steps: [{ kind: 'loop', name: 'l', goals: ['g'], within: 3 }] },
    ],
    [
      'LOOP WITHIN a variable',
      'NAME w\nINPUT n\nGOAL a "d"\nGOAL b "d"\nLOOP l USING a, b WITHIN $n',
      { steps: [{ kind: 'loop', name: 'l', goals: ['a', 'b'], within: { variable: 'n' } }] },
    ],
    ['SUPERVISED first', 'SUPERVISED\nNAME w\nGOAL g "d"\nRUN r USING g', { supervision: 'supervised' }],
    [
      'SUPERVISED HUMAN first',
      '# a comment\n\nSUPERVISED HUMAN\nNAME w\nGOAL g "d"\nRUN r USING g',
      { supervision: 'human' },
    ],
    [
      'names used before their definition',
      'NAME w\nRUN r USING g\nGOAL g "d" USING a\nAGENT a "p"',
      { steps: [{ kind: 'run', name: 'r', goals: ['g'] }] },
    ],
    ['a lower-case keyword as a name', 'NAME goal\nGOAL goal "d"\nRUN run USING goal', { name: 'goal' }],
  ])('reads %s', (_case, source, fragment) => {
    expect(specOf(source)).toMatchObject(fragment);
  });

  it('leaves out the optional fields a statement does not set', () => {
    expect(specOf('NAME w\nINPUT i\nAGENT a "p"\nGOAL g "d" USING a\nRUN r USING g')).toEqual({
      name: 'w',
      inputs: [{ name: 'i' }],
      agents: [{ name: 'a', prompt: 'p', outputs: [] }],
      goals: [{ name: 'g', kind: 'goal', description: 'd', outputs: [], using: ['a'] }],
      steps: [{ kind: 'run', name: 'r', goals: ['g'] }],
    });
  });

  it.each<[string, string, string]>([
    ['drops the newline after the opening and before the closing', '"""\nDo it.\n"""', 'Do it.'],
    ['keeps indentation', '"""\n    Step one.\n      Detail.\n  """', '    Step one.\n      Detail.\n  '],
    ['keeps quotes', '"""\nSay "done" or ""stop"".\n"""', 'Say "done" or ""stop"".'],
    ['keeps # as text', '"""\n# Heading\nText # not a comment\n"""', '# Heading\nText # not a comment'],
    ['keeps backslashes', '"""\nC:\\temp\\n\n"""', 'C:\\temp\\n'],
    ['decodes escapes in a one-line string', '"a\\nb\\tc\\rd\\\\e\\"f\\qg"', 'a\nb\tc\rd\\e"f\\qg'],
    ['keeps # in a one-line string', '"Use # for comments" # a comment', 'Use # for comments'],
  ])('reads a description string: %s', (_case, text, description) => {
    expect(specOf(`NAME w\nGOAL g ${text}\nRUN r USING g`).goals[0]?.description).toBe(description);
  });

  it('ignores full-line, trailing and indented comments', () => {
    const source = '# heading\nNAME w # the name\n   # indented\nGOAL g "d"#tight\nRUN r USING g # last';
    expect(specOf(source)).toEqual(specOf('NAME w\nGOAL g "d"\nRUN r USING g'));
  });

  it.each<[string, string]>([
    ['three statements on one line', 'NAME a GOAL g "x" RUN r USING g'],
    ['a modifier then the next statement', 'NAME a\nGOAL g "x" SUPERVISED RUN r USING g UNSUPERVISED'],
    ['a list ended by the next statement', 'NAME a\nGOAL g "x" RUN r USING g LOOP l USING g WITHIN 2'],
    ['a leading SUPERVISED on the NAME line', 'SUPERVISED HUMAN NAME a GOAL g "x" RUN r USING g'],
  ])('lets a statement end where the next begins: %s', (_case, source) => {
    expect(parseAgentfile(source, { readFile }).ok).toBe(true);
  });

  it('reads the same spec from one line as from one statement per line', () => {
    expect(specOf('NAME a INPUT i DEFAULT 2 GOAL g "x" -> f RUN r USING g')).toEqual(
      specOf('NAME a\nINPUT i DEFAULT 2\nGOAL g "x" -> f\nRUN r USING g'),
    );
  });

  it('inlines FROM files read through the injected readFile, by the path as written', () => {
    const paths: string[] = [];
    const read = (path: string) => {
      paths.push(path);
      return `text of ${path}`;
    };
    const source =
      'NAME w\nAGENT a FROM ./agents/a.md # why\nGOAL g FROM "my goals/g.md" USING a\nRUN r USING g';
    const result = parseAgentfile(source, { readFile: read });
    expect(paths).toEqual(['./agents/a.md', 'my goals/g.md']);
    expect(result).toMatchObject({
      ok: true,
      spec: {
        agents: [{ prompt: 'text of ./agents/a.md' }],
        goals: [{ description: 'text of my goals/g.md' }],
      },
    });
  });

  it.each<[string, ((path: string) => string) | undefined, string]>([
    [
      'readFile throws',
      readFile,
      `cannot read FROM file "missing.md": ENOENT: no such file, open 'missing.md'`,
    ],
    [
      'no readFile is given',
      undefined,
      'cannot read FROM file "missing.md": no readFile was given to parseAgentfile',
    ],
    [
      'readFile throws a string',
      () => {
        throw 'denied';
      },
      'cannot read FROM file "missing.md": denied',
    ],
    [
      'readFile returns no text',
      () => undefined as unknown as string,
      `cannot read FROM file "missing.md": readFile returned undefined, expected the file's text`,
    ],
  ])('reports a FROM file it cannot read at its path when %s', (_case, read, message) => {
    const source = 'NAME w\nGOAL g FROM missing.md\nRUN r USING g';
    const options = read ? { readFile: read } : {};
    expect(parseAgentfile(source, options)).toEqual({
      ok: false,
      errors: [{ line: 2, column: 13, message }],
    });
  });

  it('still validates an Agentfile whose FROM file cannot be read', () => {
    expect(errorsOf('NAME w\nGOAL g FROM missing.md\nRUN r USING h')).toEqual([
      {
        line: 2,
        column: 13,
        message: `cannot read FROM file "missing.md": ENOENT: no such file, open 'missing.md'`,
      },
      {
        line: 3,
        column: 13,
        message: 'RUN r uses "h", which is not defined (expected the name of a GOAL or CONVERGE)',
      },
    ]);
  });

  const ok = 'GOAL g "x"\nRUN r USING g';

  it.each<[string, string, AgentfileProblem[]]>([
    [
      'NAME without a name',
      `NAME\n${ok}`,
      [{ line: 1, column: 5, message: 'expected a name after NAME, found end of line' }],
    ],
    [
      'a keyword as a name',
      `NAME GOAL\n${ok}`,
      [
        {
          line: 1,
          column: 6,
          message: 'expected a name after NAME, found keyword GOAL (keywords are not names)',
        },
      ],
    ],
    [
      'a string as a name',
      `NAME w\nAGENT "x"\n${ok}`,
      [{ line: 2, column: 7, message: 'expected a name after AGENT, found STRING "x"' }],
    ],
    [
      'a leftover token',
      `NAME w extra\n${ok}`,
      [
        {
          line: 1,
          column: 8,
          message: 'expected a new statement or end of line after NAME w, found IDENTIFIER extra',
        },
      ],
    ],
    [
      'a leftover string',
      `NAME w\nINPUT a DEFAULT "x" "y"\n${ok}`,
      [
        {
          line: 2,
          column: 21,
          message: 'expected a new statement or end of line after INPUT a, found STRING "y"',
        },
      ],
    ],
    [
      'DEFAULT without a value',
      `NAME w\nINPUT a DEFAULT\n${ok}`,
      [
        {
          line: 2,
          column: 16,
          message: 'expected a string, number or name after DEFAULT in INPUT a, found end of line',
        },
      ],
    ],
    [
      'AGENT without a prompt',
      `NAME w\nAGENT critic 5\n${ok}`,
      [{ line: 2, column: 14, message: 'expected a string or FROM after AGENT critic, found NUMBER 5' }],
    ],
    [
      'a statement continued on the next line',
      `NAME w\nAGENT critic\n  "You are a critic."\n${ok}`,
      [{ line: 2, column: 13, message: 'expected a string or FROM after AGENT critic, found end of line' }],
    ],
    [
      'FROM without a path',
      `NAME w\nAGENT critic FROM # no path\n${ok}`,
      [
        {
          line: 2,
          column: 18,
          message: 'expected a file path after FROM in AGENT critic, found end of line',
        },
      ],
    ],
    [
      '-> without a field',
      `NAME w\nAGENT critic "p" ->\n${ok}`,
      [
        {
          line: 2,
          column: 20,
          message: 'expected a field name after "->" in AGENT critic, found end of line',
        },
      ],
    ],
    [
      'a trailing comma',
      `NAME w\nAGENT critic "p" -> a,\n${ok}`,
      [
        {
          line: 2,
          column: 23,
          message: 'expected a field name after "," in AGENT critic, found end of line',
        },
      ],
    ],
    [
      'a missing comma',
      `NAME w\nAGENT critic "p" -> a b\n${ok}`,
      [
        {
          line: 2,
          column: 23,
          message:
            'expected ",", REQUIRES, SUPERVISED, UNSUPERVISED, a new statement or end of line after AGENT critic, found IDENTIFIER b',
        },
      ],
    ],
    [
      'a variable as a field',
      `NAME w\nGOAL g2 "x" -> $f\n${ok}`,
      [{ line: 2, column: 16, message: 'expected a field name after "->" in GOAL g2, found VARIABLE $f' }],
    ],
    [
      'REQUIRES without quotes',
      `NAME w\nAGENT critic "p" REQUIRES fast\n${ok}`,
      [
        {
          line: 2,
          column: 27,
          message: 'expected a profile name in quotes after REQUIRES in AGENT critic, found IDENTIFIER fast',
        },
      ],
    ],
    [
      'clauses out of order',
      `NAME w\nAGENT critic "p" SUPERVISED -> a\n${ok}`,
      [
        {
          line: 2,
          column: 29,
          message:
            'expected a new statement or end of line after AGENT critic, found "->" (the order is "->", REQUIRES, SUPERVISED, UNSUPERVISED)',
        },
      ],
    ],
    [
      'HUMAN without SUPERVISED',
      `NAME w\nAGENT critic "p" UNSUPERVISED HUMAN\n${ok}`,
      [
        {
          line: 2,
          column: 31,
          message:
            'expected a new statement or end of line after AGENT critic, found keyword HUMAN (HUMAN comes right after SUPERVISED)',
        },
      ],
    ],
    [
      'USING on an AGENT',
      `NAME w\nAGENT critic "p" USING x\n${ok}`,
      [
        {
          line: 2,
          column: 18,
          message:
            'expected "->", REQUIRES, SUPERVISED, UNSUPERVISED, a new statement or end of line after AGENT critic, found keyword USING (only GOAL, CONVERGE, RUN and LOOP take USING)',
        },
      ],
    ],
    [
      'WITHIN on a GOAL',
      `NAME w\nGOAL g2 "x" WITHIN 3\n${ok}`,
      [
        {
          line: 2,
          column: 13,
          message:
            'expected "->", USING, SUPERVISED, UNSUPERVISED, a new statement or end of line after GOAL g2, found keyword WITHIN (only CONVERGE and LOOP take WITHIN)',
        },
      ],
    ],
    [
      'CONVERGE without WITHIN',
      `NAME w\nCONVERGE c "x"\n${ok}`,
      [
        {
          line: 2,
          column: 15,
          message: 'expected "->", USING or WITHIN after CONVERGE c, found end of line',
        },
      ],
    ],
    [
      'a modifier before WITHIN',
      `NAME w\nCONVERGE c "x" USING a SUPERVISED\n${ok}`,
      [
        {
          line: 2,
          column: 24,
          message:
            'expected "," or WITHIN after CONVERGE c, found keyword SUPERVISED (the order is "->", USING, WITHIN, SUPERVISED, UNSUPERVISED)',
        },
      ],
    ],
    [
      'WITHIN a name without $',
      `NAME w\nCONVERGE c "x" WITHIN max\n${ok}`,
      [
        {
          line: 2,
          column: 23,
          message:
            'expected a whole number or $variable after WITHIN in CONVERGE c, found IDENTIFIER max (a variable starts with $: $max)',
        },
      ],
    ],
    [
      'WITHIN $ alone',
      `NAME w\nLOOP l USING g WITHIN $\n${ok}`,
      [
        {
          line: 2,
          column: 23,
          message:
            'expected a whole number or $variable after WITHIN in LOOP l, found "$", a variable with no name (expected $ then letters, digits or _)',
        },
      ],
    ],
    [
      'RUN without USING',
      `NAME w\n${ok}\nRUN r2`,
      [{ line: 4, column: 7, message: 'expected USING after RUN r2, found end of file' }],
    ],
    [
      'USING without a goal',
      `NAME w\n${ok}\nRUN r2 USING # none`,
      [{ line: 4, column: 13, message: 'expected a goal name after USING in RUN r2, found end of file' }],
    ],
    [
      'LOOP without WITHIN',
      `NAME w\n${ok}\nLOOP l USING g`,
      [{ line: 4, column: 15, message: 'expected "," or WITHIN after LOOP l, found end of file' }],
    ],
    [
      'a modifier on a LOOP',
      `NAME w\n${ok}\nLOOP l USING g WITHIN 2 UNSUPERVISED`,
      [
        {
          line: 4,
          column: 25,
          message:
            'expected a new statement or end of line after LOOP l, found keyword UNSUPERVISED (only AGENT, GOAL, CONVERGE and RUN take a supervision modifier)',
        },
      ],
    ],
    [
      'a clause on its own line',
      `NAME w\n${ok}\n  -> f`,
      [
        {
          line: 4,
          column: 3,
          message:
            'expected a statement (NAME, INPUT, AGENT, GOAL, CONVERGE, RUN, LOOP, or SUPERVISED first), found "->" (a statement ends at the end of its line)',
        },
      ],
    ],
    [
      'UNSUPERVISED as a statement',
      `UNSUPERVISED\nNAME w\n${ok}`,
      [
        {
          line: 1,
          column: 1,
          message:
            'expected a statement (NAME, INPUT, AGENT, GOAL, CONVERGE, RUN, LOOP, or SUPERVISED first), found keyword UNSUPERVISED (UNSUPERVISED is a modifier, on the line of its AGENT, GOAL, CONVERGE or RUN)',
        },
      ],
    ],
    [
      'an unknown keyword',
      `NAME w\n${ok}\nOUTPUT x`,
      [
        {
          line: 4,
          column: 1,
          message:
            'expected a statement (NAME, INPUT, AGENT, GOAL, CONVERGE, RUN, LOOP, or SUPERVISED first), found unknown keyword OUTPUT',
        },
      ],
    ],
    [
      'a lower-case keyword',
      `NAME w\n${ok}\ngoal x "y"`,
      [
        {
          line: 4,
          column: 1,
          message:
            'expected a statement (NAME, INPUT, AGENT, GOAL, CONVERGE, RUN, LOOP, or SUPERVISED first), found IDENTIFIER goal (keywords are upper-case: GOAL)',
        },
      ],
    ],
    [
      'an unknown keyword among clauses',
      `NAME w\nGOAL g2 "x" OUTPUTS y\n${ok}`,
      [
        {
          line: 2,
          column: 13,
          message:
            'expected "->", USING, SUPERVISED, UNSUPERVISED, a new statement or end of line after GOAL g2, found unknown keyword OUTPUTS',
        },
      ],
    ],
    [
      'a stray character',
      `NAME w @\n${ok}`,
      [
        {
          line: 1,
          column: 8,
          message: 'expected a new statement or end of line after NAME w, found unexpected character "@"',
        },
      ],
    ],
    [
      'a malformed number',
      `NAME w\nGOAL g2 "x" 5abc\n${ok}`,
      [
        {
          line: 2,
          column: 13,
          message:
            'expected "->", USING, SUPERVISED, UNSUPERVISED, a new statement or end of line after GOAL g2, found "5abc", which is neither a number (digits only) nor a name (a letter or _ first)',
        },
      ],
    ],
    [
      'an unterminated string, at its opening quote',
      'NAME w\nGOAL g "unterminated\nRUN r USING g',
      [
        {
          line: 2,
          column: 8,
          message:
            'expected a string or FROM after GOAL g, found an unterminated string "unterminated (no closing " on its line)',
        },
      ],
    ],
    [
      'an unterminated triple-quoted string, at its opening quotes',
      'NAME w\nGOAL g """\nDo it.\nRUN r USING g',
      [
        {
          line: 2,
          column: 8,
          message:
            'expected a string or FROM after GOAL g, found an unterminated string """… (no closing """ before the end of the file)',
        },
      ],
    ],
    [
      'SUPERVISED after the first statement',
      `NAME w\nSUPERVISED HUMAN\n${ok}`,
      [
        {
          line: 2,
          column: 1,
          message:
            "expected SUPERVISED HUMAN only as the first statement (the workflow's default) or as a modifier of AGENT, GOAL, CONVERGE or RUN, found it after other statements",
        },
      ],
    ],
    [
      'SUPERVISED after a LOOP, which takes no modifier',
      `NAME w\n${ok}\nLOOP l USING g WITHIN 2 SUPERVISED`,
      [
        {
          line: 4,
          column: 25,
          message:
            "expected SUPERVISED only as the first statement (the workflow's default) or as a modifier of AGENT, GOAL, CONVERGE or RUN, found it after other statements",
        },
      ],
    ],
    [
      'WITHIN 0',
      `NAME w\nCONVERGE c "x" WITHIN 0\n${ok}`,
      [
        {
          line: 2,
          column: 23,
          message: 'expected a whole number greater than 0 after WITHIN in CONVERGE c, found NUMBER 0',
        },
      ],
    ],
    [
      'a WITHIN too large to count',
      `NAME w\n${ok}\nLOOP l USING g WITHIN 99999999999999999999`,
      [
        {
          line: 4,
          column: 23,
          message:
            'expected a whole number up to 9007199254740991 after WITHIN in LOOP l, found NUMBER 99999999999999999999',
        },
      ],
    ],
  ])('reports %s', (_case, source, expected) => {
    expect(errorsOf(source)).toEqual(expected);
  });

  it.each<[string, string, AgentfileProblem[]]>([
    [
      'a missing NAME, at 1:1',
      '\n\nGOAL g "x"\nRUN r USING g',
      [{ line: 1, column: 1, message: 'expected a NAME statement (NAME <name>), found none' }],
    ],
    [
      'a second NAME',
      'NAME w\nNAME v\nGOAL g "x"\nRUN r USING g',
      [
        {
          line: 2,
          column: 6,
          message: 'expected one NAME, found a second (the workflow is already named w at 1:6)',
        },
      ],
    ],
    [
      'no RUN or LOOP',
      'NAME w\nGOAL g "x"',
      [{ line: 1, column: 1, message: 'expected at least one RUN or LOOP, found none' }],
    ],
    [
      'a RUN of an AGENT',
      'NAME w\nINPUT i\nAGENT draft "p"\nRUN review USING draft',
      [
        {
          line: 4,
          column: 18,
          message: 'RUN review uses "draft", which is not a GOAL or CONVERGE (it is an AGENT defined at 3:1)',
        },
      ],
    ],
    [
      'a LOOP of an undefined goal',
      'NAME w\nGOAL g "x"\nLOOP l USING g, h WITHIN 2',
      [
        {
          line: 3,
          column: 17,
          message: 'LOOP l uses "h", which is not defined (expected the name of a GOAL or CONVERGE)',
        },
      ],
    ],
    [
      'a GOAL using an undefined agent',
      'NAME w\nGOAL g "x" USING critic\nRUN r USING g',
      [
        {
          line: 2,
          column: 18,
          message: 'GOAL g uses "critic", which is not defined (expected the name of an AGENT)',
        },
      ],
    ],
    [
      'a CONVERGE using a goal',
      'NAME w\nGOAL g "x"\nCONVERGE c "x" USING g WITHIN 2\nRUN r USING c',
      [
        {
          line: 3,
          column: 22,
          message: 'CONVERGE c uses "g", which is not an AGENT (it is a GOAL defined at 2:1)',
        },
      ],
    ],
    [
      'a name defined twice, at the later definition',
      'NAME w\nGOAL g "x"\nRUN r USING g\nINPUT g',
      [
        {
          line: 4,
          column: 7,
          message:
            'INPUT g reuses a name: expected a name no other INPUT, AGENT, GOAL, CONVERGE, RUN or LOOP has, found the name of the GOAL defined at 2:1',
        },
      ],
    ],
    [
      'a step named like its goal',
      'NAME w\nGOAL g "x"\nRUN g USING g',
      [
        {
          line: 3,
          column: 5,
          message:
            'RUN g reuses a name: expected a name no other INPUT, AGENT, GOAL, CONVERGE, RUN or LOOP has, found the name of the GOAL defined at 2:1',
        },
      ],
    ],
    [
      'an output field named like an input',
      'NAME w\nINPUT topic\nAGENT a "p" -> notes, topic\nGOAL g "x" USING a\nRUN r USING g',
      [
        {
          line: 3,
          column: 23,
          message:
            'AGENT a declares output field "topic": expected a field name no INPUT has, found the name of the INPUT defined at 2:1',
        },
      ],
    ],
    [
      'a field and an agent listed twice',
      'NAME w\nGOAL g "x" -> a, a USING b, b\nAGENT b "p"\nRUN r USING g',
      [
        {
          line: 2,
          column: 18,
          message:
            'GOAL g lists output field "a" twice: expected each output field once, found it again after 2:15',
        },
        {
          line: 2,
          column: 29,
          message: 'GOAL g lists agent "b" twice: expected each agent once, found it again after 2:26',
        },
      ],
    ],
    [
      'WITHIN a variable that names nothing',
      'NAME w\nINPUT max\nGOAL g "x" -> rounds\nLOOP l USING g WITHIN $round',
      [
        {
          line: 4,
          column: 23,
          message:
            'LOOP l has WITHIN $round: expected an INPUT or a declared output field (one of $max, $rounds), found neither',
        },
      ],
    ],
    [
      'UNSUPERVISED under SUPERVISED HUMAN',
      'SUPERVISED HUMAN\nNAME w\nAGENT a "p" UNSUPERVISED\nGOAL g "x" USING a SUPERVISED\nRUN r USING g UNSUPERVISED',
      [
        {
          line: 3,
          column: 13,
          message:
            "AGENT a is UNSUPERVISED: expected SUPERVISED, SUPERVISED HUMAN or no modifier under the workflow's SUPERVISED HUMAN (at 1:1), found UNSUPERVISED",
        },
        {
          line: 5,
          column: 15,
          message:
            "RUN r is UNSUPERVISED: expected SUPERVISED, SUPERVISED HUMAN or no modifier under the workflow's SUPERVISED HUMAN (at 1:1), found UNSUPERVISED",
        },
      ],
    ],
    [
      'an empty file',
      '',
      [
        { line: 1, column: 1, message: 'expected a NAME statement (NAME <name>), found none' },
        { line: 1, column: 1, message: 'expected at least one RUN or LOOP, found none' },
      ],
    ],
  ])('validates %s', (_case, source, expected) => {
    expect(errorsOf(source)).toEqual(expected);
  });

  it('reports one syntax error per broken statement, sorted, and validates only clean syntax', () => {
    const source = [
      'NAME w',
      'AGENT a 5 GOAL hidden "skipped with the rest of its line"',
      'RUN r USING missing',
      '  -> dangling',
      'GOAL 7',
      'NAME "x" "unterminated',
      'RUN',
    ].join('\n');
    expect(errorsOf(source)).toEqual([
      { line: 2, column: 9, message: 'expected a string or FROM after AGENT a, found NUMBER 5' },
      {
        line: 4,
        column: 3,
        message:
          'expected a statement (NAME, INPUT, AGENT, GOAL, CONVERGE, RUN, LOOP, or SUPERVISED first), found "->" (a statement ends at the end of its line)',
      },
      { line: 5, column: 6, message: 'expected a name after GOAL, found NUMBER 7' },
      { line: 6, column: 6, message: 'expected a name after NAME, found STRING "x"' },
      { line: 7, column: 4, message: 'expected a name after RUN, found end of file' },
    ]);
  });

  it('reports problems that do not break the syntax beside the validation', () => {
    expect(errorsOf('SUPERVISED\nNAME w\nSUPERVISED\nCONVERGE c "x" WITHIN 0\nRUN r USING d')).toEqual([
      {
        line: 3,
        column: 1,
        message:
          "expected SUPERVISED only as the first statement (the workflow's default) or as a modifier of AGENT, GOAL, CONVERGE or RUN, found it after other statements",
      },
      {
        line: 4,
        column: 23,
        message: 'expected a whole number greater than 0 after WITHIN in CONVERGE c, found NUMBER 0',
      },
      {
        line: 5,
        column: 13,
        message: 'RUN r uses "d", which is not defined (expected the name of a GOAL or CONVERGE)',
      },
    ]);
  });

  it('refuses a text that is not a string without throwing', () => {
    expect(parseAgentfile(undefined as unknown as string)).toEqual({
      ok: false,
      errors: [{ line: 1, column: 1, message: "expected the Agentfile's text, found undefined" }],
    });
  });

  /** Agentfile-shaped noise: keywords, names, strings, numbers, variables, punctuation, breaks. */
  const tokenSoup = fc
    .array(
      fc.oneof(
        fc.constantFrom(...AGENTFILE_KEYWORDS),
        fc.constantFrom(
          'a',
          'b',
          'goal',
          'fix-cycle',
          'OUTPUTS',
          '"x"',
          '"a\\"b"',
          '"',
          '"""',
          '"""\n',
          '\\',
        ),
        fc.constantFrom('5', '0', '$n', '$', '$a-b', '->', ',', '#', '\n', '\r\n', ' ', '@', 'x.md', '🙂'),
        fc.string({ maxLength: 6 }),
      ),
      { maxLength: 60 },
    )
    .chain((parts) => fc.constantFrom(parts.join(' '), parts.join('')));

  const flakyReadFile = (path: string): string => {
    if (path.length % 2 === 0) throw new Error(`cannot open ${path}`);
    return `text of ${path}`;
  };

  it('never throws on any text, and returns a schema-valid spec or sorted, placed problems', () => {
    fc.assert(
      fc.property(fc.oneof(tokenSoup, fc.string({ unit: 'binary', maxLength: 200 })), (source) => {
        const result = parseAgentfile(source, { readFile: flakyReadFile });
        if (result.ok) {
          expect(workflowSpecSchema.safeParse(result.spec).success).toBe(true);
          return;
        }
        expect(result.errors.length).toBeGreaterThan(0);
        for (const problem of result.errors) {
          expect(problem.line).toBeGreaterThanOrEqual(1);
          expect(problem.column).toBeGreaterThanOrEqual(1);
          expect(problem.message).not.toBe('');
        }
        const order = result.errors.map((problem) => problem.line * 1e6 + problem.column);
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }),
      { numRuns: 500 },
    );
  });

  it('parses a valid workflow the same whatever runs of spaces and comments separate its tokens', () => {
    const tokens = ['NAME', 'w', 'GOAL', 'g', '"x y"', '->', 'f', 'RUN', 'r', 'USING', 'g', ',', 'g'];
    const separator = fc.constantFrom(' ', '  ', '\t', ' \t ');
    fc.assert(
      fc.property(fc.array(separator, { minLength: tokens.length, maxLength: tokens.length }), (gaps) => {
        const source = tokens.map((token, index) => `${token}${gaps[index]}`).join('');
        expect(specOf(`${source}# end`)).toEqual(specOf('NAME w GOAL g "x y" -> f RUN r USING g, g'));
      }),
    );
  });
});
