import { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/** Lambda's limit on a function's environment: every variable's name and value together. */
const MAX_ENVIRONMENT_BYTES = 4 * 1024;

/** What a value resolved at deployment (a name or ARN) is counted as: an ARN's usual length. */
const DEPLOY_TIME_VALUE_BYTES = 100;

/** The variables a message names as the biggest. */
const NAMED_VARIABLES = 3;

/**
 * `environment`, checked to fit Lambda's 4 KB for the function `scope` makes (`folder`: its folder
 * in `@agentstep/functions`): throws, naming the function and its biggest variables, when it
 * would not. A value resolved at deployment counts as {@link DEPLOY_TIME_VALUE_BYTES}.
 */
export function checkedEnvironment(
  scope: Construct,
  folder: string,
  environment: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const stack = Stack.of(scope);
  const sizes = Object.entries(environment)
    .map(([name, value]) => ({ name, bytes: Buffer.byteLength(name) + bytesOf(stack.resolve(value)) }))
    .sort((a, b) => b.bytes - a.bytes);
  const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
  if (total <= MAX_ENVIRONMENT_BYTES) return environment;
  const biggest = sizes
    .slice(0, NAMED_VARIABLES)
    .map(({ name, bytes }) => `${name} (${bytes} bytes)`)
    .join(', ');
  throw new Error(
    `AgentStep function ${scope.node.path} (functions/${folder}): its environment would take about ${total} bytes, over Lambda's limit of ${MAX_ENVIRONMENT_BYTES} for all its variables together; the biggest: ${biggest}. Move the instructions into your agent file (the agent prop: the functions bundled with it read them there, not from the environment), or give a shorter script or fewer Lambda tools.`,
  );
}

/** The bytes a resolved value takes deployed: literal text exactly, each deploy-time value estimated. */
function bytesOf(resolved: unknown): number {
  if (typeof resolved === 'string') return Buffer.byteLength(resolved);
  const join = (resolved as { 'Fn::Join'?: [string, unknown[]] } | null)?.['Fn::Join'];
  if (join === undefined) return DEPLOY_TIME_VALUE_BYTES;
  const [delimiter, parts] = join;
  return (
    parts.reduce<number>((sum, part) => sum + bytesOf(part), 0) +
    Buffer.byteLength(delimiter) * Math.max(parts.length - 1, 0)
  );
}
