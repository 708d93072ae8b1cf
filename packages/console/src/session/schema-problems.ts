import type { FieldProblem } from '@agentstep/client';

/** The JSON Schema keywords a tool's arguments use (zod's `toJSONSchema` output): the ones checked here. */
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

/**
 * What is wrong with `value` under a tool's argument schema, each problem at its place (`args`,
 * `args.text`, `args.items.0`), as the API names them: the common keywords only, so the page can
 * refuse most mistakes before sending; the API checks everything again.
 */
export function schemaProblems(schema: unknown, value: unknown, path = 'args'): FieldProblem[] {
  const rule = schema as Schema;
  if (rule.anyOf !== undefined) {
    const fits = rule.anyOf.some((option) => schemaProblems(option, value, path).length === 0);
    return fits ? [] : [{ path, message: 'matches none of the forms this argument takes' }];
  }
  const wrongType = typeProblem(rule.type, value);
  if (wrongType !== undefined) return [{ path, message: wrongType }];
  if (rule.const !== undefined && JSON.stringify(rule.const) !== JSON.stringify(value))
    return [{ path, message: `must be ${JSON.stringify(rule.const)}` }];
  if (
    rule.enum !== undefined &&
    !rule.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))
  )
    return [
      { path, message: `must be one of ${rule.enum.map((option) => JSON.stringify(option)).join(', ')}` },
    ];
  if (typeof value === 'string')
    return boundProblems(path, value.length, rule.minLength, rule.maxLength, 'characters');
  if (typeof value === 'number') return numberProblems(path, value, rule);
  if (Array.isArray(value)) return arrayProblems(path, value, rule);
  if (typeof value === 'object' && value !== null)
    return objectProblems(path, value as Record<string, unknown>, rule);
  return [];
}

function typeProblem(type: Schema['type'], value: unknown): string | undefined {
  if (type === undefined) return undefined;
  const types = [type].flat();
  return types.some((each) => isOfType(each, value)) ? undefined : `must be ${types.join(' or ')}`;
}

function isOfType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function numberProblems(path: string, value: number, rule: Schema): FieldProblem[] {
  const problems = boundProblems(path, value, rule.minimum, rule.maximum, '');
  if (rule.exclusiveMinimum !== undefined && value <= rule.exclusiveMinimum)
    problems.push({ path, message: `must be more than ${rule.exclusiveMinimum}` });
  if (rule.exclusiveMaximum !== undefined && value >= rule.exclusiveMaximum)
    problems.push({ path, message: `must be less than ${rule.exclusiveMaximum}` });
  return problems;
}

function arrayProblems(path: string, value: unknown[], rule: Schema): FieldProblem[] {
  const problems = boundProblems(path, value.length, rule.minItems, rule.maxItems, 'items');
  if (rule.items !== undefined) {
    const items = rule.items;
    problems.push(...value.flatMap((item, index) => schemaProblems(items, item, `${path}.${index}`)));
  }
  return problems;
}

function objectProblems(path: string, value: Record<string, unknown>, rule: Schema): FieldProblem[] {
  const properties = rule.properties ?? {};
  const problems: FieldProblem[] = (rule.required ?? [])
    .filter((name) => value[name] === undefined)
    .map((name) => ({ path: `${path}.${name}`, message: 'is required' }));
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (property !== undefined) problems.push(...schemaProblems(property, item, `${path}.${name}`));
    else if (rule.additionalProperties === false)
      problems.push({ path: `${path}.${name}`, message: 'is not an argument this tool takes' });
  }
  return problems;
}

/** A size or value outside [min, max]; `unit` names what is counted (`characters`, `items`, or nothing for a number). */
function boundProblems(path: string, size: number, min?: number, max?: number, unit = ''): FieldProblem[] {
  const counted = unit === '' ? '' : ` ${unit}`;
  if (min !== undefined && size < min) return [{ path, message: `must be at least ${min}${counted}` }];
  if (max !== undefined && size > max) return [{ path, message: `must be at most ${max}${counted}` }];
  return [];
}
