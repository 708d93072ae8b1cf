import * as z from 'zod';

/**
 * The event of an API Gateway REST API TOKEN authorizer: the fields of Powertools'
 * `APIGatewayTokenAuthorizerEventSchema`, declared here for the reason `eventBridgeEventSchema`
 * gives (Powertools' schemas bundle every zod locale).
 */
export const tokenAuthorizerEventSchema = z.object({
  type: z.literal('TOKEN'),
  authorizationToken: z.string(),
  methodArn: z.string(),
});
