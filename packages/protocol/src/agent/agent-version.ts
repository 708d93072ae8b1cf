import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** Hex digits of an agent version: 48 bits, so two versions of one agent never collide in practice. */
const VERSION_DIGITS = 12;

/**
 * An agent's version (decision 0040): the first 12 hex digits of the SHA-256 of `inputs` as
 * canonical JSON (key order ignored), where `inputs` is everything that decides how the agent
 * behaves and how its loop runs it. The same inputs give the same version on any machine.
 */
export function agentVersion(inputs: unknown): string {
  return createHash('sha256').update(canonicalJson(inputs)).digest('hex').slice(0, VERSION_DIGITS);
}
