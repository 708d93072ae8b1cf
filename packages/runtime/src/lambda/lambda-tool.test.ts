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

  it('refuses parameters that are not an object schema', () => {
    expect(() =>
      lambdaTool({ name: 'bad', description: 'x', functionName: 'f', parameters: { type: 'string' } }),
    ).toThrow('must be a JSON Schema of type "object"');
  });
});
