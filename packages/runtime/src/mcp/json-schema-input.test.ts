import { describeTool } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { validateArgs } from '../tools/validate-args.js';
import { type JsonSchema, jsonSchemaInput } from './json-schema-input.js';
import { McpConnections } from './mcp-connections.js';
import { mcpTool } from './mcp-tool.js';

const connections = new McpConnections({}, { secretOf: async () => undefined });
const asTool = (inputSchema: JsonSchema) =>
  mcpTool(
    { name: 's__t', server: 's', tool: 't', description: '', inputSchema, approval: false, timeoutMs: 1_000 },
    connections,
  );
const problemsOf = (schema: JsonSchema, args: Record<string, unknown>) => {
  const check = validateArgs(asTool(schema), args);
  return check.ok ? [] : check.problems;
};

const issue: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    repo: { type: 'string', description: 'owner/name', pattern: '^[^/]+[/][^/]+$' },
    title: { type: 'string' },
    labels: { type: 'array', items: { type: 'string' } },
    priority: { type: 'string', enum: ['low', 'high'] },
    draft: { type: 'boolean', default: false },
  },
  required: ['repo', 'title'],
};

describe('jsonSchemaInput', () => {
  it('checks required fields, types and enums, naming each field', () => {
    expect(problemsOf(issue, { repo: 'a/b', title: 'x', labels: ['bug'], priority: 'high' })).toEqual([]);
    expect(problemsOf(issue, { repo: 'nope', labels: [1], priority: 'urgent' })).toEqual([
      { path: 'repo', message: expect.stringContaining('pattern') },
      { path: 'title', message: 'required' },
      { path: 'labels.0', message: 'expected string, received number' },
      { path: 'priority', message: 'Invalid option: expected one of "low"|"high"' },
    ]);
  });

  it('refuses unknown arguments unless the schema allows more properties', () => {
    expect(problemsOf(issue, { repo: 'a/b', title: 'x', body: 'y' })).toEqual([
      { path: 'args', message: 'unknown argument body (arguments: repo, title, labels, priority, draft)' },
    ]);
    const open = {
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: { type: 'number' },
    };
    expect(problemsOf(open, { a: 'x', b: 2 })).toEqual([]);
    expect(problemsOf(open, { a: 'x', b: 'two' })).toEqual([
      { path: 'b', message: 'expected number, received string' },
    ]);
  });

  it("gives the server's schema back for the system prompt", () => {
    const { parameters } = describeTool({ name: 't', description: 'd', input: jsonSchemaInput(issue) });
    expect(parameters).toMatchObject({
      type: 'object',
      properties: {
        repo: { type: 'string', description: 'owner/name', pattern: '^[^/]+[/][^/]+$' },
        title: { type: 'string' },
        labels: { type: 'array', items: { type: 'string' } },
        priority: { type: 'string', enum: ['low', 'high'] },
        draft: { type: 'boolean', default: false },
      },
      required: ['repo', 'title'],
      additionalProperties: false,
    });
  });

  it('follows draft-07 definitions', () => {
    const schema = {
      type: 'object',
      properties: { owner: { $ref: '#/definitions/user' } },
      required: ['owner'],
      definitions: {
        user: { type: 'object', properties: { login: { type: 'string' } }, required: ['login'] },
      },
    };
    expect(problemsOf(schema, { owner: { login: 'ada' } })).toEqual([]);
    expect(problemsOf(schema, { owner: {} })).toEqual([{ path: 'owner.login', message: 'required' }]);
  });

  it('accepts any value for a property zod cannot express, keeping its schema for the prompt', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        query: { not: { type: 'null' }, description: 'anything but null' },
      },
      required: ['query'],
    };
    expect(problemsOf(schema, { id: 1, query: 'x' })).toEqual([]);
    expect(problemsOf(schema, { id: 'one' })).toEqual([
      { path: 'id', message: 'expected number, received string' },
      { path: 'query', message: 'required' },
    ]);
    const { parameters } = describeTool({ name: 't', description: 'd', input: jsonSchemaInput(schema) });
    expect(parameters).toMatchObject({
      properties: { query: { not: { type: 'null' }, description: 'anything but null' } },
      required: ['query'],
    });
  });
});
