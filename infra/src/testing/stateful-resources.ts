/** The resources whose replacement loses data, and the properties whose change replaces them. */
const STATEFUL: Readonly<Record<string, readonly string[]>> = {
  'AWS::DynamoDB::GlobalTable': ['TableName', 'KeySchema', 'AttributeDefinitions', 'LocalSecondaryIndexes'],
  'AWS::S3::Bucket': ['BucketName'],
  'AWS::SQS::Queue': ['QueueName', 'FifoQueue'],
};

/** A resource as a synthesized template holds it. */
interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: unknown;
  UpdateReplacePolicy?: unknown;
}

/** One stateful resource as a deploy sees it: where it is, what would replace it, what keeps it. */
export interface StatefulResource {
  type: string;
  /** The properties whose change replaces the resource (absent: not set). */
  identity: Record<string, unknown>;
  /** What CloudFormation does with it on deletion and replacement (`Retain`, `Delete`, …). */
  deletionPolicy: unknown;
  updateReplacePolicy: unknown;
}

/** A template's stateful resources by logical id. */
export function statefulResources(template: {
  readonly [section: string]: unknown;
}): Record<string, StatefulResource> {
  const found: Record<string, StatefulResource> = {};
  const resources = (template.Resources ?? {}) as Record<string, TemplateResource>;
  for (const [id, resource] of Object.entries(resources)) {
    const identifying = STATEFUL[resource.Type];
    if (identifying === undefined) continue;
    const properties = resource.Properties ?? {};
    found[id] = {
      type: resource.Type,
      identity: Object.fromEntries(
        identifying.filter((name) => name in properties).map((name) => [name, properties[name]]),
      ),
      deletionPolicy: resource.DeletionPolicy ?? null,
      updateReplacePolicy: resource.UpdateReplacePolicy ?? null,
    };
  }
  return found;
}

/**
 * What deploying `after` over `before` would do to `before`'s stateful resources: each one it would
 * delete (its logical id gone) or replace (an identifying property changed), saying why.
 */
export function lostResources(
  before: Record<string, StatefulResource>,
  after: Record<string, StatefulResource>,
): string[] {
  return Object.entries(before).flatMap(([id, kept]) => {
    const now = after[id];
    if (now === undefined) return [`${id} (${kept.type}) would be deleted: its logical id is gone`];
    const changed = Object.keys({ ...kept.identity, ...now.identity }).filter(
      (name) => JSON.stringify(kept.identity[name]) !== JSON.stringify(now.identity[name]),
    );
    return changed.map((name) => `${id} (${kept.type}) would be replaced: its ${name} changed`);
  });
}
