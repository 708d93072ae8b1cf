import { providerModel } from '@agentstep/protocol';
import { GoalScriptedModel, type Model, ReplayModel, ScriptedModel } from '@agentstep/runtime';
import { createModel } from '@agentstep/runtime/models';
import demoScript from '../../../../examples/demo-script.json' with { type: 'json' };
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';
import type { RunOptions } from './run-options.js';

/** The model a run uses: a script file, a cassette, or the built-in demo script. */
export async function loadModel(options: RunOptions, io: CliIo): Promise<{ model: Model; source: string }> {
  try {
    return await chooseModel(options, io);
  } catch (error) {
    // A script or cassette that does not parse is the caller's to fix: say what is wrong, no trace.
    if (error instanceof UsageError || !(error instanceof Error)) throw error;
    throw new UsageError(error.message);
  }
}

async function chooseModel(options: RunOptions, io: CliIo): Promise<{ model: Model; source: string }> {
  const provider = providerModel(options.model)?.provider;
  if (provider === 'bedrock') return { model: createModel({ model: options.model }), source: options.model };
  if (provider === 'openai' || provider === 'anthropic') {
    const keyVariable = provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
    // A local OpenAI-compatible server (Ollama, vLLM) usually needs no key; the SDK insists on one.
    const apiKey = process.env[keyVariable] ?? (options.baseUrl ? 'none' : undefined);
    const model = createModel({ model: options.model, baseURL: options.baseUrl, apiKey });
    return { model, source: `${options.model}${options.baseUrl ? ` at ${options.baseUrl}` : ''}` };
  }
  if (options.model === 'replay') {
    const path = options.cassette ?? '';
    return { model: ReplayModel.fromCassette(await readInput(path, io), path), source: `cassette ${path}` };
  }
  if (options.script === undefined)
    return { model: new ScriptedModel(demoScript, 'the demo script'), source: 'the demo script' };
  const text = await readInput(options.script, io);
  // A JSON object is a workflow's script, by goal; an array, every turn's script.
  const model = text.trimStart().startsWith('{')
    ? GoalScriptedModel.fromJson(text, options.script)
    : ScriptedModel.fromJson(text, options.script);
  return { model, source: options.script };
}

async function readInput(path: string, io: CliIo): Promise<string> {
  try {
    return await io.readFile(path);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new UsageError(`Cannot read ${path} (${reason}).`);
  }
}
