import { describe, expect, it } from 'vitest';
import { AgentStepApiError } from './errors.js';
import { readApiError } from './read-api-error.js';

describe('readApiError', () => {
  it.each([
    [
      'the API error shape, with fields',
      400,
      JSON.stringify({
        error: {
          code: 'ValidationError',
          message: 'The body does not match what this route takes.',
          fields: [{ path: 'message', message: 'must not be empty' }],
        },
      }),
      {
        status: 400,
        code: 'ValidationError',
        message: 'The body does not match what this route takes.',
        fields: [{ path: 'message', message: 'must not be empty' }],
      },
    ],
    [
      'the API error shape, without fields',
      409,
      JSON.stringify({ error: { code: 'SessionBusy', message: 'Session s is running a turn.' } }),
      { status: 409, code: 'SessionBusy', message: 'Session s is running a turn.', fields: undefined },
    ],
    [
      'a proxy page',
      502,
      '<html>Bad Gateway</html>',
      {
        status: 502,
        code: 'UnexpectedResponse',
        message:
          'HTTP 502 with a body that is not an AgentStep error (is baseUrl the AgentStep API?): <html>Bad Gateway</html>',
      },
    ],
    ['JSON of another shape', 404, '{"message":"Not Found"}', { status: 404, code: 'UnexpectedResponse' }],
    ['JSON null', 500, 'null', { status: 500, code: 'UnexpectedResponse' }],
    ['an empty body', 503, '', { status: 503, message: expect.stringContaining('(empty)') }],
  ])('reads %s', async (_, status, body, expected) => {
    const error = await readApiError(new Response(body, { status }));
    expect(error).toBeInstanceOf(AgentStepApiError);
    expect(error).toMatchObject(expected);
  });

  it('quotes at most 200 characters of a body it cannot read', async () => {
    const error = await readApiError(new Response('x'.repeat(1_000), { status: 500 }));
    expect(error.message).toMatch(/: x{200}…$/);
  });
});
