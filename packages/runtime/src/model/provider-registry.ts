import * as z from 'zod';
import type { Model } from './model.js';
import type { Provider, ProviderConnection } from './provider.js';
import { providerSchema } from './provider-schema.js';

/** What `Provider.model` must return: a model, by the `Model` port's shape. */
const modelShape = z.object({
  id: z.string().min(1),
  stream: z.custom<Model['stream']>((value) => typeof value === 'function'),
});

/**
 * The model providers a process knows, by name, resolving `<provider>:<model>` ids as the Vercel AI
 * SDK's provider registry does. Providers are listed in the order they were registered.
 */
export class ProviderRegistry {
  readonly #providers = new Map<string, Provider>();

  /** @param providers registered in this order */
  constructor(providers: readonly Provider[] = []) {
    for (const provider of providers) this.register(provider);
  }

  /**
   * Adds a provider, checked against {@link providerSchema}; throws an error naming what is wrong
   * with it, or that its name is taken.
   */
  register(provider: Provider): this {
    const checked = providerSchema.safeParse(provider);
    if (!checked.success) {
      const problems = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new Error(`Not a model provider: ${problems.join('; ')}.`);
    }
    if (this.#providers.has(provider.name))
      throw new Error(`A model provider named "${provider.name}" is registered already.`);
    this.#providers.set(provider.name, provider);
    return this;
  }

  /** The registered providers, in the order they were registered. */
  get providers(): readonly Provider[] {
    return [...this.#providers.values()];
  }

  /** The provider a `<provider>:<model>` id names, if it names a registered one and a model. */
  providerOf(id: string): Provider | undefined {
    const colon = id.indexOf(':');
    if (colon < 1 || colon === id.length - 1) return undefined;
    return this.#providers.get(id.slice(0, colon));
  }

  /**
   * The model a `<provider>:<model>` id names, connected as `connection` says; throws an error
   * naming the registered providers for an id that names none of them. A provider's step that
   * reports no usage has an unknown usage, never 0, unless the model says otherwise.
   */
  model(id: string, connection: ProviderConnection = {}): Model {
    const provider = this.providerOf(id);
    if (provider === undefined) {
      const names = this.providers.map((known) => known.name).join(', ');
      throw new Error(
        `"${id}" names no registered model provider: a model id is "<provider>:<model>", with provider one of ${names}.`,
      );
    }
    const modelId = id.slice(provider.name.length + 1);
    const model = provider.model(modelId, connection);
    if (!modelShape.safeParse(model).success)
      throw new Error(
        `Provider "${provider.name}" returned no model for "${modelId}": model() must return { id, stream(request) }.`,
      );
    if (model.usageMayBeUnknown !== undefined) return model;
    return { id: model.id, usageMayBeUnknown: true, stream: (request) => model.stream(request) };
  }
}
