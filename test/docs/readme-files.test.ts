import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shellCommandLines } from '../support/shell-command-lines.js';
import { splitShellLine } from '../support/split-shell-line.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the commands of the README's first part run: a project `npm create agentstep` writes. */
const PROJECT = resolve(ROOT, 'packages/create-agentstep/template');
const PROJECT_SECTION = '## Start a project';
/** The documents whose links and commands must hold. */
const DOCUMENTS = ['README.md', 'docs/workflows.md', 'docs/protocol.md', 'docs/architecture.md'];
const FILE_ARGUMENT = /^(?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:json|txt|agentfile|mjs|js|ts|md)$/;

interface Named {
  document: string;
  path: string;
  base: string;
}

describe('the README and the docs', () => {
  it('name only files that exist in the commands they show', () => {
    const named = DOCUMENTS.flatMap(filesNamedByCommands);
    const missing = named.filter(({ path, base }) => !existsSync(resolve(base, path)));
    expect(missing.map(({ document, path }) => `${document}: ${path}`)).toEqual([]);
    // The scan finds what it should: a change to the parsing that finds nothing would pass above.
    expect(named.map(({ path }) => path)).toEqual(
      expect.arrayContaining([
        'examples/hello-script.json',
        'examples/goal-context.json',
        'examples/tools.json',
      ]),
    );
  });

  it('link only to files and headings inside the repository', () => {
    const broken = DOCUMENTS.flatMap((document) => brokenLinks(document));
    expect(broken).toEqual([]);
  });

  it('show examples/ files as they ship, where a code block names one in its first line', () => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/^```\w*\n\/\/ (examples\/[\w./-]+):[^\n]*\n[\s\S]*?^```$/gm)];
    expect(blocks.length).toBeGreaterThan(0);
    for (const [block, path = ''] of blocks) {
      const body = block.slice(block.indexOf('\n') + 1, block.lastIndexOf('```'));
      expect(readFileSync(resolve(ROOT, path), 'utf8'), path).toBe(body);
    }
  });
});

/** The file arguments of every shell command in `document`, with the folder each is relative to. */
function filesNamedByCommands(document: string): Named[] {
  const text = readFileSync(resolve(ROOT, document), 'utf8');
  const projectEnd = text.indexOf('\n## ', text.indexOf(PROJECT_SECTION) + 1);
  const projectEndLine = text.slice(0, projectEnd).split('\n').length;
  return shellCommandLines(text).flatMap(({ line, text: command }) => {
    const base = document === 'README.md' && line < projectEndLine ? PROJECT : ROOT;
    return splitShellLine(command)
      .words.map((word) => word.replace(/^['"]|['"]$/g, ''))
      .filter((word) => FILE_ARGUMENT.test(word))
      .map((path) => ({ document, path, base }));
  });
}

/** Each relative link of `document` whose file is missing or outside the repository, or whose heading is. */
function brokenLinks(document: string): string[] {
  const path = resolve(ROOT, document);
  const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, link = '']) => {
    if (/^[a-z]+:/.test(link)) return [`${document}: ${link} leaves the repository`];
    const [file = '', anchor] = link.split('#');
    const target = file === '' ? path : resolve(dirname(path), file);
    if (relative(ROOT, target).startsWith('..')) return [`${document}: ${link} leaves the repository`];
    if (!existsSync(target)) return [`${document}: ${link} names no file`];
    if (anchor === undefined || !target.endsWith('.md')) return [];
    return headingSlugs(readFileSync(target, 'utf8')).has(anchor)
      ? []
      : [`${document}: ${link} names no heading`];
  });
}

/** The anchors GitHub gives a Markdown file's headings (code blocks left out). */
function headingSlugs(markdown: string): Set<string> {
  const headings = markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm);
  return new Set(
    [...headings].map(([, heading = '']) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}
