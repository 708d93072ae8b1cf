import { describe, expect, it } from 'vitest';
import { costPerMillionSteps, floorUsage, requestUnits } from './cost-model.js';

describe('costPerMillionSteps', () => {
  it('prices a step with three calls: transitions at $25 a million, request units and Lambda requests', () => {
    const cost = costPerMillionSteps({ readUnits: 4, writeUnits: 10, transitions: 6, lambdaInvocations: 4 });
    expect(cost.transitions).toBeCloseTo(150);
    expect(cost.dynamodb).toBeCloseTo(4 * 0.125 + 10 * 0.625);
    expect(cost.lambda).toBeCloseTo(0.8);
    expect(cost.total).toBeCloseTo(150 + 6.75 + 0.8);
  });

  it('has a floor of one query, one write, 3 + N transitions and 1 + N invocations', () => {
    expect(floorUsage(3)).toEqual({ readUnits: 1, writeUnits: 1, transitions: 6, lambdaInvocations: 4 });
  });
});

describe('requestUnits', () => {
  it('meters reads per 4 KB read, writes per 1 KB item, transactional writes twice', () => {
    expect(requestUnits('QueryCommand', [], 9000)).toEqual({ read: 3, write: 0 });
    expect(requestUnits('GetItemCommand', [], 10)).toEqual({ read: 1, write: 0 });
    expect(requestUnits('PutItemCommand', [300], 0)).toEqual({ read: 0, write: 1 });
    expect(requestUnits('TransactWriteItemsCommand', [200, 2100, 50], 0)).toEqual({ read: 0, write: 10 });
  });
});
