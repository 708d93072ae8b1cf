import { formatUsd } from '../common/format-usd.js';
import type { StepMetric } from './timeline-item.js';

const WIDTH = 320;
const HEIGHT = 90;
/** Room above the tallest bar and the line's last point, so the line's stroke is never cut. */
const TOP = 6;

/**
 * Tokens per model step as bars and the session's cost so far as a line, steps on the x axis, in
 * inline SVG of a fixed height (so it never shifts the page as steps arrive).
 */
export function CostChart({ metrics }: { metrics: readonly StepMetric[] }) {
  const steps = metrics.length;
  const tokens = metrics.map((metric) => metric.input + metric.output);
  const costs = metrics.map((metric) => metric.totalCostUsd ?? 0);
  const maxTokens = Math.max(1, ...tokens);
  const maxCost = Math.max(0, ...costs);
  const slot = WIDTH / Math.max(1, steps);
  const costLine = costs
    .map(
      (cost, step) =>
        `${(step + 0.5) * slot},${HEIGHT - (maxCost === 0 ? 0 : (cost / maxCost) * (HEIGHT - TOP))}`,
    )
    .join(' ');
  const total = tokens.reduce((sum, count) => sum + count, 0);
  const summary = `${steps} step${steps === 1 ? '' : 's'} · ${total} tokens${maxCost > 0 ? ` · ${formatUsd(maxCost)}` : ''}`;
  return (
    <figure class="cost-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        {tokens.map((count, step) => (
          <rect
            key={metrics[step]?.key}
            class="tokens"
            x={step * slot + slot * 0.15}
            width={slot * 0.7}
            y={HEIGHT - (count / maxTokens) * (HEIGHT - TOP)}
            height={(count / maxTokens) * (HEIGHT - TOP)}
          >
            <title>
              step {step + 1}: {count} tokens
            </title>
          </rect>
        ))}
        {maxCost > 0 && <polyline class="cost" points={costLine} />}
      </svg>
      <figcaption>Tokens per step (bars), cost so far (line): {summary}</figcaption>
    </figure>
  );
}
