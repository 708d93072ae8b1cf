/** Collects an async stream of text into one string. */
export async function readAll(chunks: AsyncIterable<string>): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts.join('');
}
