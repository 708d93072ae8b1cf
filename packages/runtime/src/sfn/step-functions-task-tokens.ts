import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import type { TaskTokens } from '../approvals/task-tokens.js';

/** {@link TaskTokens} on Step Functions: `SendTaskSuccess`, whose errors keep their names. */
export class StepFunctionsTaskTokens implements TaskTokens {
  readonly #client: SFNClient;

  constructor(client: SFNClient = new SFNClient({})) {
    this.#client = client;
  }

  async sendTaskSuccess(token: string, output: unknown): Promise<void> {
    await this.#client.send(new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify(output) }));
  }
}
