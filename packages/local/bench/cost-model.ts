/**
 * What one loop iteration (a model step and its N calls) costs on AWS at list prices: DynamoDB
 * request units, Step Functions Standard transitions and Lambda requests. Model tokens and Lambda
 * duration are left out: they depend on the model and the memory, not on the orchestration.
 */
export interface StepUsage {
  readUnits: number;
  writeUnits: number;
  transitions: number;
  lambdaInvocations: number;
}

/** US East (N. Virginia) list prices in USD, as published on 2026-11-28 (unchanged since 2024-11). */
export const LIST_PRICES = {
  date: '2026-11-28',
  region: 'us-east-1',
  /** DynamoDB on-demand: per million read request units (a strongly consistent 4 KB read). */
  readUnit: 0.125 / 1e6,
  /** DynamoDB on-demand: per million write request units (a 1 KB write; transactional writes take two). */
  writeUnit: 0.625 / 1e6,
  /** Step Functions Standard: per state transition ($0.025 per 1,000). */
  transition: 0.025 / 1e3,
  /** Lambda: per request ($0.20 per million). */
  lambdaRequest: 0.2 / 1e6,
} as const;

/** A step's cost in USD per million steps, in total and by service. */
export interface StepCost {
  total: number;
  dynamodb: number;
  transitions: number;
  lambda: number;
}

/** The cost of a million steps that each use `usage`. */
export function costPerMillionSteps(usage: StepUsage): StepCost {
  const dynamodb = (usage.readUnits * LIST_PRICES.readUnit + usage.writeUnits * LIST_PRICES.writeUnit) * 1e6;
  const transitions = usage.transitions * LIST_PRICES.transition * 1e6;
  const lambda = usage.lambdaInvocations * LIST_PRICES.lambdaRequest * 1e6;
  return { total: dynamodb + transitions + lambda, dynamodb, transitions, lambda };
}

/**
 * The floor of a step with `calls` calls (issue 30): one model invoke, one query and one
 * conditional write of the log, one invoke per call, and 3 + N transitions.
 */
export function floorUsage(calls: number): StepUsage {
  return { readUnits: 1, writeUnits: 1, transitions: 3 + calls, lambdaInvocations: 1 + calls };
}

/** Request units of a DynamoDB request, estimated from its size as DynamoDB meters them. */
export function requestUnits(command: string, requestBytes: number[], responseBytes: number) {
  const units = (bytes: number, per: number) => Math.max(1, Math.ceil(bytes / per));
  if (command === 'TransactWriteItemsCommand')
    return { read: 0, write: requestBytes.reduce((sum, bytes) => sum + 2 * units(bytes, 1024), 0) };
  if (/^(Put|Update|Delete)Item|BatchWriteItem/.test(command))
    return { read: 0, write: requestBytes.reduce((sum, bytes) => sum + units(bytes, 1024), 0) };
  return { read: units(responseBytes, 4096), write: 0 };
}
