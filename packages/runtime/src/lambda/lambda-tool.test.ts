import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../tools/run-tool.js';
import { validateArgs } from '../tools/validate-args.js';
import { lambdaTool } from './lambda-tool.js';

const lambda = mockClient(LambdaClient);
// Test files share their worker's modules: the client's real send comes back for the next file.
afterAll(() => lambda.restore());
const context = { session: 's', turn: 't', batch: 'b', position: 0 };
// The SDK wraps response bytes in a blob adapter; plain bytes carry the same data for the tool.
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)) as never;
const weather = lambdaTool(
  {
    name: 'weather',
    description: 'Forecast for a city.',
    functionName: 'arn:aws:lambda:us-east-1:123456789012:function:weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    },
  },
  new LambdaClient({ region: 'us-east-1' }),
);

beforeEach(() => lambda.reset());

describe('lambdaTool', () => {
  it('sends the arguments as the event, unchanged, and returns the JSON response', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: encode({ forecast: 'sun' }) });
    expect(await runTool(weather, { city: 'Oslo', days: 2 }, context)).toEqual({
      tool: 'weather',
      status: 'success',
      content: { forecast: 'sun' },
    });
    const [call] = lambda.commandCalls(InvokeCommand);
    expect(call?.args[0].input.FunctionName).toBe('arn:aws:lambda:us-east-1:123456789012:function:weather');
    expect(JSON.parse(new TextDecoder().decode(call?.args[0].input.Payload as Uint8Array))).toEqual({
      city: 'Oslo',
      days: 2,
    });
  });

  it("B4 makes the function's own error the call's failure", async () => {
    lambda.on(InvokeCommand).resolves({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      Payload: encode({ errorType: 'CityNotFound', errorMessage: 'No city named Atlantis' }),
    });
    expect(await runTool(weather, { city: 'Atlantis' }, context)).toEqual({
      tool: 'weather',
      status: 'failure',
      content: 'weather failed: CityNotFound: No city named Atlantis',
    });
  });

  it.each([
    [{ city: 7 }, 'city: expected string, received number'],
    [{ city: 'Oslo', days: 0 }, 'days: Too small'],
    [{ city: 'Oslo', units: 'C' }, 'unknown argument units (arguments: city, days)'],
    [{ city: 'Oslo', user_id: 'u1' }, 'identity is supplied by the runtime'],
  ])('B1 B2 validates %j against its JSON Schema before invoking', (args, message) => {
    const check = validateArgs(weather, args);
    expect(check.ok ? '' : check.message).toContain(message);
  });

  const payment = (spec: { idempotent?: boolean; passIdempotencyKey?: boolean }) =>
    lambdaTool(
      {
        name: 'pay',
        description: 'Pays an invoice.',
        functionName: 'pay',
        parameters: { type: 'object', properties: { invoice: { type: 'string' } } },
        ...spec,
      },
      new LambdaClient({ region: 'us-east-1' }),
    );
  const sentEvent = () =>
    JSON.parse(
      new TextDecoder().decode(lambda.commandCalls(InvokeCommand)[0]?.args[0].input.Payload as Uint8Array),
    );

  it('with passIdempotencyKey, the event carries the call key next to the arguments', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: encode('paid') });
    await runTool(payment({ passIdempotencyKey: true }), { invoice: 'i1' }, { ...context, position: 2 });
    expect(sentEvent()).toEqual({ invoice: 'i1', idempotencyKey: 's:b:2' });
  });

  it('declares itself idempotent only when its spec says so', () => {
    expect(payment({}).idempotent).toBe(false);
    expect(payment({ idempotent: true }).idempotent).toBe(true);
  });

  it('refuses passIdempotencyKey with a parameter of that name', () => {
    expect(() =>
      lambdaTool({
        name: 'clash',
        description: 'x',
        functionName: 'f',
        parameters: { type: 'object', properties: { idempotencyKey: { type: 'string' } } },
        passIdempotencyKey: true,
      }),
    ).toThrow('has a parameter named idempotencyKey and passIdempotencyKey');
  });

  it.each([
    [
      false,
      'outcome unknown: Lambda stopped the function of pay after it may have started (Sandbox.Timedout: Task timed out after 3.00 seconds)',
    ],
    [true, 'pay failed: Sandbox.Timedout: Task timed out after 3.00 seconds'],
  ])('a function Lambda stopped as it ran (idempotent: %s) fails with %s', async (idempotent, content) => {
    lambda.on(InvokeCommand).resolves({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      Payload: encode({ errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 3.00 seconds' }),
    });
    expect(await runTool(payment({ idempotent }), { invoice: 'i1' }, context)).toEqual({
      tool: 'pay',
      status: 'failure',
      content,
    });
  });

  it('refuses parameters that are not an object schema', () => {
    expect(() =>
      lambdaTool({ name: 'bad', description: 'x', functionName: 'f', parameters: { type: 'string' } }),
    ).toThrow('must be a JSON Schema of type "object"');
  });
});
