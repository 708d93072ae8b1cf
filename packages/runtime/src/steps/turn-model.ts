import { UnknownModelProfileError } from '../errors.js';
import type { Model } from '../model/model.js';
import type { TurnUser } from './turn-user.js';

/** The model that serves a turn's steps, and the profile it was chosen by, if any. */
export interface TurnModel {
  model: Model;
  profile?: string;
}

/**
 * The model a turn's steps use: the profile its user message names (a workflow agent's `REQUIRES`),
 * else the default model. A profile that is not configured throws UnknownModelProfile, naming those
 * that are: the turn fails, since no step of it can run.
 */
export function turnModel(
  session: string,
  user: TurnUser | undefined,
  deps: { model: Model; models?: Readonly<Record<string, Model>> },
): TurnModel {
  const profile = user?.model;
  if (profile === undefined) return { model: deps.model };
  const models = deps.models ?? {};
  const model = Object.hasOwn(models, profile) ? models[profile] : undefined;
  if (model === undefined) throw new UnknownModelProfileError(session, profile, Object.keys(models));
  return { model, profile };
}
