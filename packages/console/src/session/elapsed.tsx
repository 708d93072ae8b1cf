import { useEffect, useState } from 'preact/hooks';

/** How often a running call's elapsed time is shown anew. */
const TICK_MS = 1_000;

/** Seconds as the timeline says them: `0.4 s`, `12 s`, `3 min 05 s`. */
export function formatSeconds(seconds: number): string {
  if (seconds < 10) return `${Math.max(0, seconds).toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`;
}

/** The time since `since` (seconds since the epoch), ticking every second while it is shown. */
export function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return <span class="elapsed">running for {formatSeconds(now / 1000 - since)}</span>;
}
