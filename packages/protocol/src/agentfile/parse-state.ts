import { type AgentfileToken, STATEMENT_KEYWORDS } from './agentfile-token.js';
import { describeToken } from './describe-token.js';
import type { AgentfileProblem } from './format-agentfile-problem.js';
import type { WorkflowSpec } from './workflow-spec.js';
import type { SourcePosition, WorkflowSpecPath } from './workflow-spec-problems.js';

/** Reads a `FROM` file, relative to the Agentfile's folder; throws when it cannot. */
export type ReadAgentfileFile = (path: string) => string;

/**
 * An Agentfile being parsed: the token cursor, the problems found so far, and the spec being
 * built with the source position of each of its parts (for validation messages).
 */
export class ParseState {
  private index = 0;
  readonly problems: AgentfileProblem[] = [];
  /** Whether every statement so far parsed; validation runs only then. */
  syntaxClean = true;
  /** Statements read so far (`SUPERVISED` may only be the first). */
  statements = 0;
  /** The name token of every NAME statement. */
  readonly names: AgentfileToken[] = [];
  /** The spec being built, all but its name. */
  readonly spec: Omit<WorkflowSpec, 'name'> = { inputs: [], agents: [], goals: [], steps: [] };
  private readonly places = new Map<string, SourcePosition>();

  constructor(
    private readonly tokens: AgentfileToken[],
    readonly readFile: ReadAgentfileFile | undefined,
  ) {}

  /** The next token (the last token, `end`, repeats forever). */
  peek(): AgentfileToken {
    return this.tokens[Math.min(this.index, this.tokens.length - 1)] ?? END;
  }

  /** Reads the next token. */
  next(): AgentfileToken {
    const token = this.peek();
    this.index += 1;
    return token;
  }

  /** Whether `token` is a keyword among `keywords`. */
  isKeyword(token: AgentfileToken, ...keywords: string[]): boolean {
    return token.kind === 'keyword' && keywords.includes(token.value);
  }

  /** Records a syntax error at `token`: `expected <what>, found <token>[ <hint>]`. Returns undefined. */
  expected(what: string, token: AgentfileToken, hint?: string): undefined {
    this.syntaxClean = false;
    this.report(token, `expected ${what}, found ${describeToken(token)}${hint ? ` ${hint}` : ''}`);
    return undefined;
  }

  /** Records a problem that does not stop the statement (validation still runs). */
  report(at: SourcePosition, message: string): void {
    this.problems.push({ line: at.line, column: at.column, message });
  }

  /** Remembers where the spec part at `path` was written. */
  place(path: WorkflowSpecPath, at: SourcePosition): void {
    this.places.set(path.join('.'), { line: at.line, column: at.column });
  }

  /** Where the spec part at `path` (or the nearest part holding it) was written. */
  locate(path: WorkflowSpecPath): SourcePosition | undefined {
    for (let length = path.length; length > 0; length -= 1) {
      const at = this.places.get(path.slice(0, length).join('.'));
      if (at) return at;
    }
    return undefined;
  }

  /** Skips blank lines. */
  skipNewlines(): void {
    while (this.peek().kind === 'newline') this.next();
  }

  /** After a syntax error: skips to the next line that starts with a statement keyword. */
  recover(): void {
    for (;;) {
      const token = this.next();
      if (token.kind === 'end') return;
      if (token.kind === 'newline' && this.isKeyword(this.peek(), ...STATEMENT_KEYWORDS)) return;
    }
  }
}

const END: AgentfileToken = { kind: 'end', value: '', text: '', line: 1, column: 1 };
