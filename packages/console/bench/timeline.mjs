// Prints how long the console takes to show a session of about 500 logged events in headless
// Chromium (issue 14 asks for under 1 s), and how long the main thread stays busy while the next
// turn streams in (responsive: no task over 100 ms, the time within which a click should answer):
// `agentstep serve` with a script of 24 batches of 20 calls.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** Issue 14: a session of 500 events shows in under 1 s... */
const TARGET_SHOWN_MS = 1000;
/** ...and stays responsive while streaming: no main-thread task longer than a click may wait. */
const TARGET_LONGEST_TASK_MS = 100;

/** One row: PASS or MISS against its target, or INFO for a figure with none. */
function row(label, figure, target) {
  const verdict = target === undefined ? 'INFO' : figure <= target ? 'PASS' : 'MISS';
  const goal = target === undefined ? '(no target: information)' : `(target <= ${target})`;
  return `${verdict}  ${label.padEnd(50)}${String(figure).padStart(8)}  ${goal}`;
}

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.log(`INFO  console timeline: skipped, no Chromium at ${executablePath}`);
  process.exit(0);
}
const bin = fileURLToPath(new URL('../../cli/bin/agentstep.js', import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), 'agentstep-console-bench-'));
// Each call's arguments differ from every other's: a call repeated three times ends the turn (decision 0030).
const step = (n) =>
  `<execute>${JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ name: 'echo', args: { text: `item ${n}.${i}` } })))}</execute>`;
writeFileSync(
  join(cwd, 'script.json'),
  JSON.stringify([...Array.from({ length: 24 }, (_, n) => step(n)), 'Finished.<end>']),
);
const serve = spawn(
  process.execPath,
  [bin, 'serve', '--port', '0', '--auth', 'dev', '--script', 'script.json'],
  {
    cwd,
    stdio: ['ignore', 'pipe', 'ignore'],
  },
);
const url = await new Promise((settle) => {
  let out = '';
  serve.stdout.on('data', (part) => {
    out += part;
    const match = /^listening on (\S+)\n/.exec(out);
    if (match) settle(match[1]);
  });
});
let browser;
try {
  const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' };
  const { session } = await (
    await fetch(`${url}/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: 'Many calls' }),
    })
  ).json();
  let summary;
  do {
    await new Promise((settle) => setTimeout(settle, 200));
    summary = await (await fetch(`${url}/sessions/${session}`, { headers })).json();
  } while (summary.status !== 'idle');

  browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic'],
  });
  const page = await browser.newPage();
  await page.addInitScript(
    `localStorage.setItem('agentstep.console.credentials', '{"token": "bench", "who": "bench"}')`,
  );
  await page.goto(`${url}/`);
  for (let round = 1; round <= 3; round++) {
    await page.evaluate(() => {
      location.hash = '#/';
    });
    await page.waitForTimeout(300);
    const ms = await page.evaluate(
      (id) =>
        new Promise((settle) => {
          const start = performance.now();
          const observer = new MutationObserver(() => {
            if (document.querySelector('.item.turn-end') === null) return;
            observer.disconnect();
            settle(performance.now() - start);
          });
          observer.observe(document.body, { subtree: true, childList: true });
          location.hash = `#/sessions/${id}`;
        }),
      session,
    );
    console.log(
      row(
        `console timeline: ${summary.lastSeq} events shown, round ${round} (ms)`,
        Math.round(ms),
        TARGET_SHOWN_MS,
      ),
    );
  }

  // Responsiveness while streaming: the next turn's ~500 events arrive live; the browser reports
  // every main-thread task over 50 ms (a "long task", which would delay a click or a keystroke).
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
  await fetch(`${url}/sessions/${session}/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ message: 'Many calls again' }),
  });
  await page.waitForFunction(() => document.querySelectorAll('.item.turn-end').length === 2, undefined, {
    timeout: 120_000,
  });
  const longTasks = await page.evaluate(() => window.longTasks);
  const longest = Math.round(Math.max(0, ...longTasks));
  console.log(row("console streaming a turn's events: longest task (ms)", longest, TARGET_LONGEST_TASK_MS));
  console.log(row('console streaming: main-thread tasks over 50 ms', longTasks.length));
} finally {
  await browser?.close();
  const exited = new Promise((settle) => serve.once('exit', settle));
  if (serve.exitCode === null && serve.kill('SIGINT')) await exited;
  rmSync(cwd, { recursive: true, force: true });
}
