import { createServer, type IncomingMessage, type Server } from 'node:http';

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
  'secretsmanager.GetSecretValue': (input) => ({
    ARN: `arn:aws:secretsmanager:us-east-1:123456789012:secret:${String(input.SecretId)}`,
    SecretString: 'sk-test',
  }),
};

/**
 * A stand-in for the AWS services the functions call besides DynamoDB, over their JSON protocol
 * (EventBridge, Secrets Manager, Step Functions), at an endpoint the SDK is pointed at with
 * `AWS_ENDPOINT_URL_<SERVICE>`: it records every call with the access key that signed it and
 * answers with `operations`' output, or a 400 `UnknownOperationException` for any other.
 */
export class AwsStandIn {
  readonly calls: AwsCall[] = [];
  readonly #server: Server;
  readonly #operations: Record<string, Operation>;
  #url: Promise<string>;

  constructor(operations: Record<string, Operation> = {}) {
    this.#operations = { ...DEFAULT_OPERATIONS, ...operations };
    this.#server = createServer(async (request, response) => {
      const target = String(request.headers['x-amz-target'] ?? '');
      const input = JSON.parse((await bodyOf(request)) || '{}') as Record<string, unknown>;
      const accessKeyId = /Credential=([^/]+)\//.exec(String(request.headers.authorization))?.[1] ?? '';
      this.calls.push({ accessKeyId, target, input });
      const operation = this.#operations[target];
      response.setHeader('content-type', 'application/x-amz-json-1.1');
      if (operation === undefined) {
        response.statusCode = 400;
        response.end(
          JSON.stringify({ __type: 'UnknownOperationException', message: `No stand-in for ${target}.` }),
        );
        return;
      }
      response.end(JSON.stringify(await operation(input)));
    });
    this.#url = new Promise((settle) =>
      this.#server.listen(0, '127.0.0.1', () => {
        const address = this.#server.address();
        settle(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
      }),
    );
  }

  /** The environment that points a function's SDK clients at the stand-in. */
  async environment(): Promise<Record<string, string>> {
    const url = await this.#url;
    return {
      AWS_ENDPOINT_URL_EVENTBRIDGE: url,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: url,
      AWS_ENDPOINT_URL_SFN: url,
    };
  }

  close(): void {
    this.#server.close();
  }
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
