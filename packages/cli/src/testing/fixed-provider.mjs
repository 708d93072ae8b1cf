// A model provider as a user writes one, outside the runtime's source: plain JavaScript, no
// imports. Each of its models streams one fixed answer naming the model and the base URL it was
// given. Tests register it with `agentstep run --provider`.
export default {
  name: 'fixed',
  description: 'one fixed answer (FIXED_API_KEY)',
  keyVariable: 'FIXED_API_KEY',
  model: (modelId, connection) => ({
    id: `fixed:${modelId}`,
    async *stream() {
      yield `The fixed answer, from ${modelId}`;
      yield ` at ${connection.baseURL}.`;
      yield { inputTokens: 12, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 };
    },
  }),
};
