import { afterAll, beforeAll, expect } from 'vitest';
import type { Model } from '../model/model.js';
import { type ModelRun, runModel, STOP_SEQUENCES } from '../steps/run-model.js';
import { type Recording, type ReplayServer, startReplayServer } from './replay-server.js';

/** A replay server for one test file, and a model step against its next recording. */
export interface ReplayFixture {
  /** The server's `http://127.0.0.1:<port>`, once the file's tests run. */
  url(): string;
  /** Request bodies the server received, in order. */
  bodies(): readonly string[];
  /** The step of `model` (a client of {@link url}) while the server answers `recording` (or these, in turn). */
  step(
    recording: Recording | readonly Recording[],
    model: Model,
    onText?: (text: string) => void,
  ): Promise<ModelRun>;
  /** The error the step fails with while the server answers `recording`; the test fails if it succeeds. */
  failure(recording: Recording, model: Model): Promise<Error>;
}

const MESSAGES = [{ role: 'user' as const, content: 'Answer the question.' }];
const REQUEST = {
  system: 'An agent.',
  messages: MESSAGES,
  step: 0,
  turnStep: 0,
  stopSequences: STOP_SEQUENCES,
};

/**
 * A {@link ReplayServer} started before the calling test file's tests and closed after them
 * (`http2` for Bedrock), with model steps run through `runModel`, as a model step runs them.
 */
export function replayFixture(options: { http2?: boolean } = {}): ReplayFixture {
  let server: ReplayServer | undefined;
  beforeAll(async () => {
    server = await startReplayServer(options);
  });
  afterAll(() => server?.close());
  const started = (): ReplayServer => server ?? expect.fail('the replay server starts before the tests');
  const step = (
    recording: Recording | readonly Recording[],
    model: Model,
    onText?: (text: string) => void,
  ) => {
    started().recordings.push(...[recording].flat());
    return runModel(model, REQUEST, onText);
  };
  return {
    url: () => started().url,
    bodies: () => started().bodies,
    step,
    failure: (recording, model) =>
      step(recording, model).then(
        () => expect.fail('the step succeeded'),
        (error: Error) => error,
      ),
  };
}
