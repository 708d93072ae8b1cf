// How fast `GET /sessions` finds sessions among 1,000 (issue 29: a search answers in <= 200 ms),
// on the in-memory stores through the app itself: each session one finished turn of a model step
// with its usage, a call, its result and an answer; every tenth failed. Run with `pnpm bench`.
import type { PersistedEvent, SessionsList, TurnAccepted } from '@agentstep/protocol';
import { endTurn, modelStepKey } from '@agentstep/runtime';
import { createApi } from '../src/create-api.js';
import { bearerNameTenant, storedSession } from '../src/tenants.js';
import { inMemoryApiDeps } from '../src/testing/index.js';

const SESSIONS = 1_000;
const RUNS = 15;
const TARGET_MS = 200;
const TOPICS = ['quarterly report', 'invoice', 'travel plans', 'release notes', 'hiring loop'];

/** One bench row, as the other packages' benches print them: PASS or MISS, label, figure, target. */
function row(label: string, ms: number): string {
  const verdict = ms <= TARGET_MS ? 'PASS' : 'MISS';
  return `${verdict}  ${label.padEnd(50)}${`${ms.toFixed(1)} ms`.padStart(16)}  (target <= ${TARGET_MS} ms)`;
}

const deps = inMemoryApiDeps(bearerNameTenant);
const app = createApi(deps);
const headers = { authorization: 'Bearer ann', 'content-type': 'application/json' };

/** Starts session `index` over the API and finishes its turn in the log, as the loop would. */
async function finishedSession(index: number): Promise<string> {
  const message = `Session ${index}: look into the ${TOPICS[index % TOPICS.length]} and tell me what changed since last week.`;
  const response = await app.request('/sessions', {
    method: 'POST',
    headers,
    body: JSON.stringify({ message }),
  });
  const { session, turn } = (await response.json()) as TurnAccepted;
  const stored = storedSession('ann', session);
  const at = Date.now() / 1000;
  const events: PersistedEvent[] = [
    { type: 'call', content: '{"name":"echo","args":{"text":"hi"}}', timestamp: at },
    {
      type: 'result',
      content: '[{"name":"echo","status":"success","output":"hi"}]',
      payload: { tools_executed: 1, success_count: 1, failure_count: 0 },
      timestamp: at,
    },
    { type: 'respond', content: 'Nothing changed that matters.', timestamp: at },
  ];
  const usage = { inputTokens: 1_200, outputTokens: 90, cacheReadTokens: 0, cacheWriteTokens: 0 };
  await deps.log.append({
    session: stored,
    turn,
    key: modelStepKey(`${turn}.0`),
    events: events.map((event) => ({ event })),
    note: { model: 'scripted', at: Date.now(), latencyMs: 20, usage, costUsd: 0.005 },
  });
  const status = index % 10 === 0 ? 'failed' : 'done';
  await endTurn({ session: stored, turn, status, message: status }, deps);
  return session;
}

/** The median time of `GET /sessions?{query}` over {@link RUNS} runs, and what the last one listed. */
async function measure(query: string): Promise<{ ms: number; listed: number }> {
  const times: number[] = [];
  let listed = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const response = await app.request(`/sessions?${query}`, { headers });
    const list = (await response.json()) as SessionsList;
    times.push(performance.now() - started);
    listed = list.sessions.length;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(RUNS / 2)] ?? Number.NaN, listed };
}

for (let index = 0; index < SESSIONS; index++) await finishedSession(index);
console.log(
  `\nGET /sessions over ${SESSIONS.toLocaleString('en')} sessions (in-memory stores), median of ${RUNS}`,
);
const queries: Array<[string, string]> = [
  ['first page, no filter', 'limit=50'],
  ['q in every 5th title', 'q=INVOICE&limit=50'],
  ['q in one title', 'q=session%20537:'],
  ['q in no title or id', 'q=no%20such%20text'],
  ['lastTurn=failed, limit=100', 'lastTurn=failed&limit=100'],
  ['q, lastTurn=failed, createdAfter', 'q=report&lastTurn=failed&createdAfter=2000-01-01'],
];
for (const [label, query] of queries) {
  const { ms, listed } = await measure(query);
  console.log(row(`${label} (${listed} listed)`, ms));
}
