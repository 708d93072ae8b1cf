/** No task waits on the token (any more): unknown, already completed, timed out or its execution ended. */
export class TaskDoesNotExistError extends Error {
  /** Step Functions' name for the same refusal of SendTaskSuccess and SendTaskFailure. */
  override readonly name = 'TaskDoesNotExist';

  constructor(token: string) {
    super(
      `No task waits on the task token ${token}: it is unknown, already completed, timed out or its execution ended.`,
    );
  }
}
