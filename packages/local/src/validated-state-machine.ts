import { createHash } from 'node:crypto';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';

/** The hashes of the definitions this process has validated, whichever engine hosted them. */
const validated = new Set<string>();
let validations = 0;

/** How many times this process has validated a definition: once per distinct content. */
export function definitionValidations(): number {
  return validations;
}

/**
 * An aws-local-stepfunctions `StateMachine` for the definition, validated only the first time this
 * process sees its content: validating the loop costs ~300 ms of CPU, and every engine (each CLI
 * command, each test) hosts the same few definitions. An invalid definition is never remembered.
 */
export function validatedStateMachine(definition: StateMachineDefinition): StateMachine {
  const content = createHash('sha256').update(JSON.stringify(definition)).digest('base64');
  if (!validated.has(content)) {
    // The validator writes defaults into what it checks (each state's QueryLanguage, which the
    // engine never reads): it checks a copy, so every machine runs the definition as given.
    new StateMachine(structuredClone(definition), { validationOptions: { checkArn: false } });
    validations++;
    validated.add(content);
  }
  return new StateMachine(definition, { validationOptions: { noValidate: true } });
}
