import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { sigV4Fetch } from '../sigv4/sigv4-fetch.js';

/** Where a {@link SigV4TraceExporter} sends spans, and as whom. */
export interface SigV4TraceExporterOptions {
  /** The OTLP/HTTP traces URL itself (`…/v1/traces`). */
  url: string;
  /** The region the request is signed for. */
  region: string;
  /** The service the request is signed for. @default 'xray' */
  service?: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** What to check when the endpoint refuses, appended to the error. @default none */
  whatToDo?: string;
  /** @default 10 seconds, as OpenTelemetry's exporters wait */
  timeoutMillis?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** OTLP/HTTP's protobuf content type. */
const PROTOBUF = 'application/x-protobuf';

/**
 * An OpenTelemetry span exporter that posts OTLP/HTTP protobuf (the SDK's own serializer) signed
 * with SigV4, as AWS's OTLP endpoints take it: CloudWatch's traces endpoint signs for `xray`. An
 * export fails, saying what the endpoint answered, on a status other than 2xx or when the answer
 * says spans were rejected (OTLP's partial success).
 */
export class SigV4TraceExporter implements SpanExporter {
  readonly #url: URL;
  readonly #fetch: typeof fetch;
  readonly #options: SigV4TraceExporterOptions;

  constructor(options: SigV4TraceExporterOptions) {
    this.#options = options;
    this.#url = new URL(options.url);
    this.#fetch = sigV4Fetch({
      service: options.service ?? 'xray',
      region: options.region,
      credentials: options.credentials,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.#send(spans).then(
      () => resultCallback({ code: ExportResultCode.SUCCESS }),
      (error: unknown) =>
        resultCallback({
          code: ExportResultCode.FAILED,
          error: error instanceof Error ? error : new Error(String(error)),
        }),
    );
  }

  async shutdown(): Promise<void> {}

  async forceFlush(): Promise<void> {}

  async #send(spans: ReadableSpan[]): Promise<void> {
    const body = ProtobufTraceSerializer.serializeRequest(spans);
    if (body === undefined)
      throw new Error(`The ${spans.length} spans could not be serialized as OTLP protobuf.`);
    const url = this.#url;
    const response = await this.#fetch(url, {
      method: 'POST',
      headers: { 'content-type': PROTOBUF },
      body,
      signal: AbortSignal.timeout(this.#options.timeoutMillis ?? 10_000),
    });
    const answer = new Uint8Array(await response.arrayBuffer());
    if (!response.ok)
      throw new Error(
        `${url.href} answered ${response.status}: ${new TextDecoder().decode(answer).trim() || response.statusText}.${this.#whatToDo()}`,
      );
    const rejected =
      answer.length > 0 ? ProtobufTraceSerializer.deserializeResponse(answer).partialSuccess : undefined;
    if (rejected?.rejectedSpans)
      throw new Error(
        `${url.href} rejected ${rejected.rejectedSpans} of ${spans.length} spans: ${rejected.errorMessage || 'no reason given'}.${this.#whatToDo()}`,
      );
  }

  #whatToDo(): string {
    return this.#options.whatToDo ? ` ${this.#options.whatToDo}` : '';
  }
}
