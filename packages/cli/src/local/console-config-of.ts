import type { ConsoleConfig } from '@agentstep/console/config';
import type { ServeAuth } from './serve-options.js';

/** How the console `agentstep serve` serves signs in to it, for each way serve lets callers in. */
export function consoleConfigOf(auth: ServeAuth): ConsoleConfig {
  switch (auth.mode) {
    case 'none':
      return { signIn: { kind: 'none' } };
    case 'dev':
      return { signIn: { kind: 'name' } };
    case 'jwt':
      return {
        signIn: {
          kind: 'oidc',
          issuer: auth.issuer,
          clientId: auth.consoleClientId,
          audience: auth.audience,
          scopes: ['openid'],
        },
      };
  }
}
