import { issuerKeys } from '@agentstep/api/jwt';
import { ENV_NAMES } from '@agentstep/protocol';
import * as z from 'zod';
import { createHandler } from './handler.js';

const env = z
  .object({ [ENV_NAMES.jwtIssuer]: z.url(), [ENV_NAMES.jwtAudience]: z.string().min(1) })
  .parse(process.env);
const issuer = env[ENV_NAMES.jwtIssuer];

export const handler = createHandler({
  issuer,
  audience: env[ENV_NAMES.jwtAudience],
  keys: issuerKeys(issuer),
});
