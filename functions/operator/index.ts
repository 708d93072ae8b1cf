import { ENV_NAMES } from '@agentstep/protocol';
import { StepFunctionsStarter } from '@agentstep/runtime/sfn';
import * as z from 'zod';
import { tableEnvSchema } from '../table-env-schema.js';
import { tableStepDeps } from '../table-step-deps.js';
import { createHandler } from './handler.js';

const env = tableEnvSchema.extend({ [ENV_NAMES.stateMachine]: z.string().min(1) }).parse(process.env);
const starter = new StepFunctionsStarter({ stateMachineArn: env[ENV_NAMES.stateMachine] });

export const handler = createHandler({
  ...tableStepDeps,
  starter,
  runningTurns: () => starter.runningTurns(),
});
