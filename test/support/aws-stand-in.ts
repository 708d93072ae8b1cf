import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';

/** One AWS API call a function made: who signed it (its access key id), the service's operation, its input. */
export interface AwsCall {
  accessKeyId: string;
  /** The JSON protocol's target, `AWSEvents.PutEvents`, `secretsmanager.GetSecretValue`, … */
  target: string;
  input: Record<string, unknown>;
}

/** How the stand-in answers one operation: the output as JSON. */
export type Operation = (input: Record<string, unknown>) => unknown;

/** What the stand-in answers with no operation given for it: what each does for the loop's functions. */
const DEFAULT_OPERATIONS: Readonly<Record<string, Operation>> = {
  'AWSEvents.PutEvents': (input) => ({
    FailedEntryCount: 0,
    Entries: (input.Entries as unknown[]).map((_, index) => ({ EventId: `event-${index}` })),
  }),
  // A Lambda tool's function: it answers what it was invoked with.
  'Lambda.Invoke': (input) => ({ invoked: input.FunctionName }),
  'secretsmanager.GetSecretValue': (input) => ({
    ARN: `arn:aws:secretsmanager:us-east-1:123456789012:secret:${String(input.SecretId)}`,
    SecretString: 'sk-test',
  }),
};

/** The path of Lambda's Invoke, naming the function. */
const LAMBDA_INVOKE = /^\/2015-03-31\/functions\/([^/]+)\/invocations/;

/** The JSON protocol's target prefix of DynamoDB's operations. */
const DYNAMODB = 'DynamoDB_20120810.';

/**
 * A stand-in for the AWS services the functions call, over their JSON protocol, at an endpoint the
 * SDK is pointed at with `AWS_ENDPOINT_URL_<SERVICE>`: it records every call with the access key
 * that signed it, hands DynamoDB's to DynamoDB Local (`dynamoEndpoint`), and answers the others
 * (EventBridge, Lambda's Invoke, Secrets Manager, Step Functions) with `operations`' output, or a 400
 * `UnknownOperationException` for any other.
 */
export class AwsStandIn {
  readonly calls: AwsCall[] = [];
  readonly #server: Server;
  readonly #operations: Record<string, Operation>;
  readonly #forwardsDynamoDb: boolean;
  readonly #url: Promise<string>;

  constructor(options: { dynamoEndpoint?: string; operations?: Record<string, Operation> } = {}) {
    this.#operations = { ...DEFAULT_OPERATIONS, ...options.operations };
    this.#forwardsDynamoDb = options.dynamoEndpoint !== undefined;
    this.#server = createServer((request, response) => {
      this.#answer(request, response, options.dynamoEndpoint).catch((error: unknown) => {
        response.statusCode = 500;
        const message = error instanceof Error ? error.message : String(error);
        response.end(JSON.stringify({ __type: 'InternalFailure', message }));
      });
    });
    this.#url = new Promise((settle) =>
      this.#server.listen(0, '127.0.0.1', () => {
        const address = this.#server.address();
        settle(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
      }),
    );
  }

  /** Records a request, then forwards or answers it. */
  async #answer(request: IncomingMessage, response: ServerResponse, dynamoEndpoint: string | undefined) {
    const body = await bodyOf(request);
    // Lambda's Invoke is a path (REST), its payload the body; every other service here takes JSON.
    const invoked = LAMBDA_INVOKE.exec(request.url ?? '')?.[1];
    const target = invoked === undefined ? String(request.headers['x-amz-target'] ?? '') : 'Lambda.Invoke';
    const input =
      invoked === undefined
        ? (JSON.parse(body || '{}') as Record<string, unknown>)
        : { FunctionName: decodeURIComponent(invoked), Payload: body };
    const accessKeyId = /Credential=([^/]+)\//.exec(String(request.headers.authorization))?.[1] ?? '';
    this.calls.push({ accessKeyId, target, input });
    if (target.startsWith(DYNAMODB) && dynamoEndpoint) {
      forward(request, body, dynamoEndpoint, response);
      return;
    }
    const operation = this.#operations[target];
    response.setHeader('content-type', 'application/x-amz-json-1.1');
    if (operation === undefined) {
      response.statusCode = 400;
      response.end(
        JSON.stringify({ __type: 'UnknownOperationException', message: `No stand-in for ${target}.` }),
      );
      return;
    }
    try {
      response.end(JSON.stringify(await operation(input)));
    } catch (error) {
      // As the service answers a refusal: its error's name as the type the SDK throws by.
      response.statusCode = 400;
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      response.end(JSON.stringify({ __type: name, message }));
    }
  }

  /** The environment that points a function's SDK clients at the stand-in. */
  async environment(): Promise<Record<string, string>> {
    const url = await this.#url;
    return {
      ...(this.#forwardsDynamoDb ? { AWS_ENDPOINT_URL_DYNAMODB: url } : {}),
      AWS_ENDPOINT_URL_EVENTBRIDGE: url,
      AWS_ENDPOINT_URL_LAMBDA: url,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: url,
      AWS_ENDPOINT_URL_SFN: url,
    };
  }

  /** Stops listening, the SDK clients' kept-alive connections closed. */
  async close(): Promise<void> {
    const closed = new Promise((settle) => this.#server.close(settle));
    this.#server.closeAllConnections();
    await closed;
  }
}

/** Sends a request on to `endpoint` as it came (DynamoDB Local checks no signature), and its answer back. */
function forward(request: IncomingMessage, body: string, endpoint: string, response: ServerResponse): void {
  const onward = httpRequest(
    endpoint,
    { method: request.method, headers: { ...request.headers, host: new URL(endpoint).host } },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  onward.once('error', (error) => {
    response.statusCode = 502;
    response.end(JSON.stringify({ __type: 'StandInError', message: error.message }));
  });
  onward.end(body);
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
