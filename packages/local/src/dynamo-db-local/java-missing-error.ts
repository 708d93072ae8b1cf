/** A Java program DynamoDB Local needs (`java` to run it, `javac` to build its launcher) was not found. */
export class JavaMissingError extends Error {
  override readonly name = 'JavaMissing';

  constructor(command: 'java' | 'javac' = 'java') {
    super(`DynamoDB Local needs a Java 17 or newer JDK on PATH, and \`${command}\` was not found.`);
  }
}
