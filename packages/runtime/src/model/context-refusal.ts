/** What a context-window refusal states, in tokens: the window, and the input the provider counted. */
export interface ContextFigures {
  limitTokens?: number;
  /** The request's input (the messages), not the room asked for the answer. */
  requestTokens?: number;
}

/** Codes and error types that name the refusal: OpenAI and compatible servers, llama.cpp's server. */
const CODES = /^(context_length_exceeded|exceed_context_size_error)$/;

/** The providers' own wordings of a request longer than the window, each as a real refusal says it. */
const WORDINGS: readonly RegExp[] = [
  /prompt is too long/i, // Anthropic, and Claude on Bedrock
  /input length and `?max_tokens`? exceed context limit/i, // Anthropic, input plus the answer's room
  /maximum context length is [\d,]+ tokens/i, // OpenAI, vLLM, DeepSeek, OpenRouter, Llama on Bedrock
  /exceeds the context window/i, // OpenAI
  /input is too long for requested model/i, // Bedrock
  /number of input tokens exceeds maximum length/i, // Nova on Bedrock
  /too many input tokens/i, // Titan on Bedrock
  /exceeds the available context size/i, // llama.cpp's server
  /maximum prompt length is \d+/i, // xAI
];

/** Where each wording states the window; the first match wins. */
const LIMIT: readonly RegExp[] = [
  /maximum context length is ([\d,]+)/i,
  /tokens > (\d+) maximum/i,
  /exceed context limit: \d+ \+ \d+ > (\d+)/i,
  /available context size \((\d+) tokens\)/i,
  /max input tokens: (\d+)/i,
  /maximum prompt length is (\d+)/i,
];

/** Where each wording states the input (never a total that includes the answer's room). */
const REQUEST: readonly RegExp[] = [
  /prompt is too long: (\d+) tokens/i,
  /exceed context limit: (\d+) \+/i,
  /messages resulted in (\d+) tokens/i,
  /\((\d+) in the messages/i,
  /\(([\d,]+) of text input/i,
  /request has (\d+) input tokens/i,
  /prompt contains at least (\d+) input tokens/i,
  /request \((\d+) tokens\) exceeds/i,
  /request input token count: (\d+)/i,
  /request contains (\d+) tokens/i,
];

/**
 * Whether a refused request was refused for being longer than the model's context window, by the
 * error's code or type, else by the provider's message (`message`); `undefined` when it was not,
 * else the figures the refusal states (llama.cpp's `n_ctx` and `n_prompt_tokens` fields first).
 */
export function contextRefusalOf(error: unknown, message: string): ContextFigures | undefined {
  const body = field(error, 'error');
  const codes = [field(error, 'code'), field(error, 'type'), field(body, 'code'), field(body, 'type')];
  const named = codes.some((code) => typeof code === 'string' && CODES.test(code));
  if (!named && !WORDINGS.some((wording) => wording.test(message))) return undefined;
  const limitTokens = numberField(body, 'n_ctx') ?? firstNumber(LIMIT, message);
  const requestTokens = numberField(body, 'n_prompt_tokens') ?? firstNumber(REQUEST, message);
  return {
    ...(limitTokens === undefined ? {} : { limitTokens }),
    ...(requestTokens === undefined ? {} : { requestTokens }),
  };
}

function firstNumber(patterns: readonly RegExp[], text: string): number | undefined {
  for (const pattern of patterns) {
    const digits = pattern.exec(text)?.[1];
    if (digits !== undefined) return Number(digits.replaceAll(',', ''));
  }
  return undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function numberField(value: unknown, key: string): number | undefined {
  const found = field(value, key);
  return typeof found === 'number' ? found : undefined;
}
