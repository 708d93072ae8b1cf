import type { TaskTokens } from '@agentstep/runtime';

/** A task woken through {@link RecordingTaskTokens}: the token it waited on and the output it got. */
export interface SentTaskSuccess {
  token: string;
  output: unknown;
}

/** {@link TaskTokens} in process memory: every task it wakes is recorded in `sent`, in order. */
export class RecordingTaskTokens implements TaskTokens {
  readonly sent: SentTaskSuccess[] = [];

  async sendTaskSuccess(token: string, output: unknown): Promise<void> {
    this.sent.push({ token, output });
  }
}
