import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core's browser build. The console's Content-Security-Policy (`script-src 'self'`) refuses an
 * inline `<script>`, so it is evaluated through the DevTools protocol (`page.evaluate`), which the
 * policy does not govern; the page itself keeps its policy.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts a page must have none of (issue 29: "no serious violations"). */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/** What axe found on a page in one colour scheme, one line per element: rule, impact, where and why. */
async function violationsIn(page: Page, colorScheme: 'light' | 'dark'): Promise<string[]> {
  await page.emulateMedia({ colorScheme });
  if (!(await page.evaluate(`typeof window.axe === 'object'`))) await page.evaluate(`${AXE_SOURCE}\n;0`);
  const { violations } = await page.evaluate<AxeResults>(
    `axe.run(document, { resultTypes: ['violations'] })`,
  );
  return violations
    .filter(({ impact }) => BLOCKING_IMPACTS.has(impact ?? ''))
    .flatMap(({ id, impact, help, nodes }) =>
      nodes.map(
        ({ target, failureSummary }) =>
          `${colorScheme}: ${id} (${impact}) at ${target.join(' ')}: ${help}. ${(failureSummary ?? '').replace(/\s+/g, ' ')}`,
      ),
    );
}

/** Every serious or critical violation axe finds on the page as it is now, in the light and the dark scheme. */
export async function seriousViolations(page: Page): Promise<string[]> {
  return [...(await violationsIn(page, 'light')), ...(await violationsIn(page, 'dark'))];
}
