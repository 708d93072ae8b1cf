// examples/gateway-provider.mjs: --provider examples/gateway-provider.mjs --model gateway:<model>
export default {
  name: 'gateway', // lower-case letters, digits and "-"
  description: 'our model gateway (GATEWAY_API_KEY)', // one line, for help
  keyVariable: 'GATEWAY_API_KEY', // connection.apiKey is read from it; optional
  model: (modelId, connection) => ({
    id: `gateway:${modelId}`, // how metrics and --prices name it
    // request: { system, messages, stopSequences, step, turnStep }; connection: { baseURL, apiKey }
    async *stream(request) {
      yield `gateway ${modelId} at ${connection.baseURL ?? 'its default address'}, `;
      yield `step ${request.step}: text chunks of the step, as they arrive`;
      yield { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
    },
  }),
};
