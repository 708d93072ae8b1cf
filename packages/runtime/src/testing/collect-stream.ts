import type { ModelPart } from '../model/model.js';

/** Every part of a model stream, text and usage, in order. */
export async function collectParts(stream: AsyncIterable<ModelPart>): Promise<ModelPart[]> {
  const parts: ModelPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Every text chunk of a model stream, in order. */
export async function collectStream(stream: AsyncIterable<ModelPart>): Promise<string[]> {
  return (await collectParts(stream)).filter((part) => typeof part === 'string');
}
