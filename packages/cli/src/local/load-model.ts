import { readFile } from 'node:fs/promises';
import { SCRIPTED_MODEL } from '@agentstep/protocol';
import {
  GoalScriptedModel,
  type Model,
  type Provider,
  type ProviderConnection,
  type ProviderRegistry,
  ReplayModel,
  ScriptedModel,
} from '@agentstep/runtime';
import demoScript from '../../../../examples/demo-script.json' with { type: 'json' };
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';
import { checkModels } from './check-models.js';
import { loadProviders } from './load-providers.js';
import type { RunOptions } from './run-options.js';

/** The models a run uses: the default one, one per named profile, and the one that writes summaries. */
export interface LoadedModels {
  model: Model;
  /** By profile name (`--model-profile NAME=MODEL`). */
  models: Record<string, Model>;
  /** The agent file's `context.summaryModel`. @default - none: the turn's own model writes them */
  summaryModel?: Model;
  /** Where the default model comes from, for notices. */
  source: string;
  /** The model providers the run knows: the built-in ones, then those `--provider` adds. */
  providers: ProviderRegistry;
}

/**
 * The model a run uses (a script file, a cassette, the built-in demo script or a registered
 * provider's, `--provider` modules loaded first), its profiles' models and its summary model
 * (`context.summaryModel`), each made as the default one is (with `--base-url`). A `scripted`
 * profile or summary model of a scripted run plays the run's own script, on the same model: a
 * workflow's script by goal goes on where it is, and the step's `profile` tells them apart.
 */
export async function loadModel(options: RunOptions, io: CliIo): Promise<LoadedModels> {
  const providers = await loadProviders(options.providers, options.loadedAgent);
  checkModels(options, providers);
  try {
    const loaded = await chooseModel(options, io, providers);
    const modelOf = async (model: string) => {
      const shared = model === SCRIPTED_MODEL && options.model === SCRIPTED_MODEL;
      return shared ? loaded.model : (await chooseModel({ ...options, model }, io, providers)).model;
    };
    const models: Record<string, Model> = {};
    for (const [name, model] of Object.entries(options.modelProfiles)) models[name] = await modelOf(model);
    const { summaryModel } = options.context;
    return {
      ...loaded,
      models,
      ...(summaryModel === undefined ? {} : { summaryModel: await modelOf(summaryModel) }),
      providers,
    };
  } catch (error) {
    // A script or cassette that does not parse is the caller's to fix: say what is wrong, no trace.
    if (error instanceof UsageError || !(error instanceof Error)) throw error;
    throw new UsageError(error.message, { cause: error });
  }
}

async function chooseModel(
  options: RunOptions,
  io: CliIo,
  providers: ProviderRegistry,
): Promise<{ model: Model; source: string }> {
  const provider = providers.providerOf(options.model);
  if (provider !== undefined) {
    const model = providerModel(providers, provider, options);
    return { model, source: `${options.model}${options.baseUrl ? ` at ${options.baseUrl}` : ''}` };
  }
  if (options.model === 'replay') {
    const path = options.cassette ?? '';
    return { model: ReplayModel.fromCassette(await readInput(path, io), path), source: `cassette ${path}` };
  }
  const script = scriptOf(options, io);
  if (script === undefined)
    return { model: new ScriptedModel(demoScript, 'the demo script'), source: 'the demo script' };
  const text = await script.text();
  // A JSON object is a workflow's script, by goal; an array, every turn's script.
  const model = text.trimStart().startsWith('{')
    ? GoalScriptedModel.fromJson(text, script.path)
    : ScriptedModel.fromJson(text, script.path);
  return { model, source: script.path };
}

/**
 * `--script FILE`, else the agent file's script: a file beside the agent's, read from the disk as
 * the agent's module was, whatever the IO's files.
 */
function scriptOf(options: RunOptions, io: CliIo): { path: string; text(): Promise<string> } | undefined {
  if (options.script !== undefined) {
    const path = options.script;
    return { path, text: () => readInput(path, io) };
  }
  const path = options.loadedAgent?.script;
  if (path === undefined) return undefined;
  return { path, text: () => readInput(path, { readFile: (file) => readFile(file, 'utf8') }) };
}

/**
 * The provider's model. An SDK that insists on its key when the client is made (OpenAI's) fails
 * here without one: a UsageError that names the variable to set, as a refused key's error does,
 * rather than the SDK's advice to its programmers (kept as the `cause`).
 */
function providerModel(
  providers: ProviderRegistry,
  provider: Provider,
  { model, baseUrl }: Pick<RunOptions, 'model' | 'baseUrl'>,
): Model {
  const connection = connectionOf(provider, baseUrl);
  try {
    return providers.model(model, connection);
  } catch (error) {
    if (provider.keyVariable === undefined || connection.apiKey !== undefined) throw error;
    throw new UsageError(
      `${model} needs an API key: set ${provider.keyVariable} to your key (it is not set), or give --base-url URL for a server that takes none.`,
      { cause: error },
    );
  }
}

/** `--base-url`, and the key from the provider's key variable, if it reads one (an empty one is none). */
function connectionOf(provider: Provider, baseUrl: string | undefined): ProviderConnection {
  const { keyVariable } = provider;
  if (keyVariable === undefined) return { baseURL: baseUrl };
  // A local OpenAI-compatible server (Ollama, vLLM) usually needs no key; the SDKs insist on one.
  return { baseURL: baseUrl, apiKey: process.env[keyVariable] || (baseUrl ? 'none' : undefined) };
}

async function readInput(path: string, io: Pick<CliIo, 'readFile'>): Promise<string> {
  try {
    return await io.readFile(path);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new UsageError(`Cannot read ${path} (${reason}).`);
  }
}
