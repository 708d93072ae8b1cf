import { costBudgetUnpriced, DEFAULT_PRICES, type PriceTable, priceTableSchema } from '@agentstep/protocol';
import { type Model, parseJsonWith } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';
import type { RunOptions } from './run-options.js';

/**
 * The run's price table: the built-in one with the agent file's prices, then `--prices FILE`,
 * merged over it. A cost budget
 * needs a price for every model the run may use (`models`: the default one and the profiles'), or
 * it could never be spent.
 */
export async function loadPrices(
  options: RunOptions,
  models: readonly Model[],
  io: CliIo,
): Promise<PriceTable> {
  const prices = {
    ...DEFAULT_PRICES,
    ...options.loadedAgent?.agent.prices,
    ...(options.prices ? await readPrices(options.prices, io) : {}),
  };
  const unpriced = models.find((model) => costBudgetUnpriced(options.budget, prices, model.id));
  if (unpriced !== undefined) {
    throw new UsageError(
      `--max-cost needs a price for ${unpriced.id}: add one with --prices FILE, e.g. {"${unpriced.id}": {"input": 3, "output": 15}} (USD per million tokens).`,
    );
  }
  return prices;
}

async function readPrices(path: string, io: CliIo): Promise<PriceTable> {
  const text = await io.readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`Cannot read ${path} (${error.code ?? error.message}).`);
  });
  try {
    return parseJsonWith(priceTableSchema, text, path);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
