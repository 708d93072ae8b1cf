import * as z from 'zod';

/**
 * An EventBridge event as a rule's target receives it, `detail` left to the caller: the fields of
 * Powertools' `EventBridgeSchema`, declared here because Powertools' schemas import zod by its
 * named `z` export, which bundles every zod locale (~350 KiB of each Lambda that used one).
 */
export const eventBridgeEventSchema = z.object({
  version: z.string(),
  id: z.string(),
  source: z.string(),
  account: z.string(),
  time: z.iso.datetime(),
  region: z.string(),
  resources: z.array(z.string()),
  'detail-type': z.string(),
  detail: z.unknown(),
  'replay-name': z.string().optional(),
});
