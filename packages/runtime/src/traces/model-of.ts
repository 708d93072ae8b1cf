import {
  GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC,
  GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK,
  GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
} from '@opentelemetry/semantic-conventions/incubating';

/** The GenAI conventions' names of the built-in providers; others are named as `--model` names them. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
  anthropic: GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC,
  bedrock: GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK,
};

/**
 * A model as the usage ledger names it (`openai:gpt-4o`, `scripted`), as the GenAI conventions
 * name it: the provider (`openai`, `aws.bedrock`; `scripted` for the scripted model) and the model.
 */
export function modelOf(id: string): { provider: string; model: string } {
  const colon = id.indexOf(':');
  if (colon < 0) return { provider: id, model: id };
  const provider = id.slice(0, colon);
  return { provider: PROVIDER_NAMES[provider] ?? provider, model: id.slice(colon + 1) };
}
