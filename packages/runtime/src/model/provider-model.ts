import { continueAtStops, type RequestEnd } from './continue-at-stops.js';
import type { Model, ModelPart, ModelRequest } from './model.js';

/**
 * A model behind a provider's streaming API. Subclasses make one request; every provider shares
 * how a step is streamed from one or more of them (`continueAtStops`, A7). A compaction's summary
 * is one request, streamed whole.
 */
export abstract class ProviderModel implements Model {
  /** @param id how prices and metrics name the model: `openai:gpt-4o` */
  constructor(readonly id: string) {}

  /** A provider that reports no usage for a step leaves what it spent unknown, never 0. */
  readonly usageMayBeUnknown = true;

  stream(request: ModelRequest): AsyncIterable<ModelPart> {
    // A compaction's summary is prose, not a step: no marker in it ends it or asks for more.
    if (request.purpose === 'compaction') return whole(this.request(request, '', request.stopSequences));
    return continueAtStops((prefill, stops) => this.request(request, prefill, stops), request.stopSequences);
  }

  /**
   * One provider request with these stop sequences, continuing `prefill` (the step's output so
   * far) as the assistant's message when it is not empty.
   */
  protected abstract request(
    request: ModelRequest,
    prefill: string,
    stops: readonly string[],
  ): AsyncGenerator<ModelPart, RequestEnd>;
}

/** Every part of one provider request, however it ended. */
async function* whole(request: AsyncGenerator<ModelPart, RequestEnd>): AsyncGenerator<ModelPart> {
  yield* request;
}
