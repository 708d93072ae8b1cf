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

/** Where the stand-in sends what it does not answer itself, and what it answers. */
export interface StandInOptions {
  /** DynamoDB Local, which gets every DynamoDB request. @default none: DynamoDB is not stood in for */
  dynamoEndpoint?: string;
  /** An S3-compatible server (s3rver), which gets every S3 request. @default none */
  s3Endpoint?: string;
  operations?: Record<string, Operation>;
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

/** The content type of the Query protocol's requests. */
const FORM = 'application/x-www-form-urlencoded';

/** The JSON protocol's target prefix of DynamoDB's operations. */
const DYNAMODB = 'DynamoDB_20120810.';

/** What the stand-in records a post to CloudWatch's OTLP traces endpoint (`/v1/traces`, X-Ray's) as. */
export const OTLP_TRACES = 'xray.OTLPTraces';

/**
 * A stand-in for the AWS services the functions call, over their JSON protocol, at an endpoint the
 * SDK is pointed at with `AWS_ENDPOINT_URL_<SERVICE>`: it records every call with the access key
 * that signed it, hands DynamoDB's to DynamoDB Local (`dynamoEndpoint`), and answers the others
 * (EventBridge, Lambda's Invoke, Secrets Manager, Step Functions; CloudFormation's Query protocol in
 * XML) with `operations`' output, or a 400 `UnknownOperationException` for any other. It takes
 * CloudWatch's OTLP traces too (`AWS_ENDPOINT_URL_XRAY`), as {@link OTLP_TRACES}.
 */
export class AwsStandIn {
  readonly calls: AwsCall[] = [];
  readonly #server: Server;
  readonly #operations: Record<string, Operation>;
  readonly #forwardsDynamoDb: boolean;
  readonly #s3Endpoint: string | undefined;
  readonly #url: Promise<string>;

  constructor(options: StandInOptions = {}) {
    this.#operations = { ...DEFAULT_OPERATIONS, ...options.operations };
    this.#forwardsDynamoDb = options.dynamoEndpoint !== undefined;
    this.#s3Endpoint = options.s3Endpoint;
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
    const bytes = await bodyOf(request);
    const body = bytes.toString('utf8');
    if (request.method === 'POST' && request.url === '/v1/traces') {
      // CloudWatch's OTLP traces endpoint: OTLP protobuf, signed for the service its scope names.
      const contentType = String(request.headers['content-type']);
      const service = /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\//.exec(
        String(request.headers.authorization),
      )?.[1];
      this.calls.push({
        accessKeyId: accessKeyOf(request),
        target: OTLP_TRACES,
        input: { contentType, service, body: bytes },
      });
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      return;
    }
    if (this.#s3Endpoint !== undefined && isS3(request)) {
      this.calls.push({ accessKeyId: accessKeyOf(request), ...s3Call(request) });
      // Recorded with its signer above; s3rver knows only its own key, so it gets the request unsigned.
      const { authorization: _signed, ...headers } = request.headers;
      forward({ method: request.method, url: request.url, headers }, bytes, this.#s3Endpoint, response);
      return;
    }
    // Lambda's Invoke is a path (REST), its payload the body; every other service here takes JSON.
    const invoked = LAMBDA_INVOKE.exec(request.url ?? '')?.[1];
    // CloudFormation speaks the Query protocol: a form naming its action, answered in XML.
    const form = String(request.headers['content-type']).startsWith(FORM)
      ? new URLSearchParams(body)
      : undefined;
    const target = invoked
      ? 'Lambda.Invoke'
      : form
        ? `cloudformation.${form.get('Action')}`
        : String(request.headers['x-amz-target'] ?? '');
    const input = invoked
      ? { FunctionName: decodeURIComponent(invoked), Payload: body }
      : form
        ? Object.fromEntries(form)
        : (JSON.parse(body || '{}') as Record<string, unknown>);
    this.calls.push({ accessKeyId: accessKeyOf(request), target, input });
    if (target.startsWith(DYNAMODB) && dynamoEndpoint) {
      forward(request, bytes, dynamoEndpoint, response);
      return;
    }
    const operation = this.#operations[target];
    response.setHeader('content-type', form ? 'text/xml' : 'application/x-amz-json-1.1');
    try {
      if (operation === undefined)
        throw Object.assign(new Error(`No stand-in for ${target}.`), { name: 'UnknownOperationException' });
      const output = await operation(input);
      response.end(form ? String(output) : JSON.stringify(output));
    } catch (error) {
      // As the service answers a refusal: its error's name as the type (or code) the SDK throws by.
      response.statusCode = 400;
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      response.end(
        form
          ? `<ErrorResponse><Error><Type>Sender</Type><Code>${name}</Code><Message>${message}</Message></Error></ErrorResponse>`
          : JSON.stringify({ __type: name, message }),
      );
    }
  }

  /**
   * Answers `target` (`AWSEvents.PutEvents`, `cloudformation.DescribeStacks`) with `operation` until
   * the returned function puts the previous answer back.
   */
  answer(target: string, operation: Operation): () => void {
    const previous = this.#operations[target];
    this.#operations[target] = operation;
    return () => {
      if (previous === undefined) delete this.#operations[target];
      else this.#operations[target] = previous;
    };
  }

  /** The environment that points a function's SDK clients at the stand-in. */
  async environment(): Promise<Record<string, string>> {
    const url = await this.#url;
    return {
      ...(this.#forwardsDynamoDb ? { AWS_ENDPOINT_URL_DYNAMODB: url } : {}),
      AWS_ENDPOINT_URL_CLOUDFORMATION: url,
      AWS_ENDPOINT_URL_EVENTBRIDGE: url,
      AWS_ENDPOINT_URL_LAMBDA: url,
      ...(this.#s3Endpoint === undefined ? {} : { AWS_ENDPOINT_URL_S3: url }),
      AWS_ENDPOINT_URL_SECRETS_MANAGER: url,
      AWS_ENDPOINT_URL_SFN: url,
      AWS_ENDPOINT_URL_XRAY: url,
    };
  }

  /** Stops listening, the SDK clients' kept-alive connections closed. */
  async close(): Promise<void> {
    const closed = new Promise((settle) => this.#server.close(settle));
    this.#server.closeAllConnections();
    await closed;
  }
}

/** Who signed a request: the access key id of its SigV4 credential. */
function accessKeyOf(request: IncomingMessage): string {
  return /Credential=([^/]+)\//.exec(String(request.headers.authorization))?.[1] ?? '';
}

/** An S3 request (REST, path-style at an IP endpoint): no JSON target, no Lambda path, no form. */
function isS3(request: IncomingMessage): boolean {
  const form = String(request.headers['content-type']).startsWith(FORM);
  return request.headers['x-amz-target'] === undefined && !LAMBDA_INVOKE.test(request.url ?? '') && !form;
}

/** An S3 request as its operation and the bucket, key and prefix it names. */
function s3Call(request: IncomingMessage): Pick<AwsCall, 'target' | 'input'> {
  const url = new URL(request.url ?? '/', 'http://s3');
  const [, bucket = '', ...key] = url.pathname.split('/');
  const Key = decodeURIComponent(key.join('/'));
  const operation =
    request.method === 'PUT'
      ? 'PutObject'
      : request.method === 'HEAD'
        ? 'HeadObject'
        : request.method === 'DELETE'
          ? 'DeleteObject'
          : Key === ''
            ? 'ListObjectsV2'
            : 'GetObject';
  const prefix = url.searchParams.get('prefix');
  return {
    target: `S3.${operation}`,
    input: { Bucket: bucket, ...(Key === '' ? {} : { Key }), ...(prefix === null ? {} : { Prefix: prefix }) },
  };
}

/** Sends a request on to `endpoint` as it came (DynamoDB Local checks no signature), and its answer back. */
function forward(
  request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
  body: Buffer,
  endpoint: string,
  response: ServerResponse,
): void {
  const onward = httpRequest(
    new URL(request.url ?? '/', endpoint),
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

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
