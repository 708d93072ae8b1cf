/** An HTTP request as API Gateway hands it to the API function, and who it let through. */
export interface GatewayRequest {
  method: string;
  /** The path under the stage, `/sessions/s-1/stream`. */
  path: string;
  /** With IAM authorization, the principal that signed it: API Gateway's `userArn`, the tenant. */
  caller?: string;
  /** With a JWT authorizer, the `sub` it let through: the tenant. */
  sub?: string;
  body?: string | null;
  headers?: Record<string, string>;
  query?: URLSearchParams;
}

/**
 * A REST API proxy event (`{proxy+}` of stage `prod`, us-east-1) as API Gateway sends it to the
 * API function: its identity the IAM `caller`, its authorizer's context the JWT's `sub`, its
 * domain the `Host` header's (API Gateway's own unless `headers` name another).
 */
export function restApiEvent({
  method,
  path,
  caller,
  sub,
  body = null,
  headers = {},
  query,
}: GatewayRequest) {
  const allHeaders: Record<string, string> = {
    Host: 'abc123.execute-api.us-east-1.amazonaws.com',
    'x-forwarded-proto': 'https',
    'content-type': 'application/json',
    ...headers,
  };
  const parameters = query === undefined || query.size === 0 ? null : query;
  return {
    resource: '/{proxy+}',
    path,
    httpMethod: method,
    headers: allHeaders,
    multiValueHeaders: Object.fromEntries(Object.entries(allHeaders).map(([name, value]) => [name, [value]])),
    queryStringParameters: parameters && Object.fromEntries(parameters),
    multiValueQueryStringParameters:
      parameters && Object.fromEntries([...parameters.keys()].map((name) => [name, parameters.getAll(name)])),
    pathParameters: { proxy: path.slice(1) },
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: allHeaders.host ?? allHeaders.Host,
      stage: 'prod',
      requestId: crypto.randomUUID(),
      httpMethod: method,
      path: `/prod${path}`,
      resourcePath: '/{proxy+}',
      identity: {
        sourceIp: '203.0.113.7',
        userArn: caller ?? null,
        caller: caller === undefined ? null : 'AIDAEXAMPLE',
      },
      ...(sub === undefined ? {} : { authorizer: { principalId: sub, sub } }),
    },
    body,
    isBase64Encoded: false,
  };
}
