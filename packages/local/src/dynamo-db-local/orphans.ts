import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Stops every DynamoDB Local still running on `dataDir`, which only a keeper that died can leave
 * behind, and waits until they are gone. Found through `/proc`; where there is none, a launcher
 * still ends with its keeper (its standard input closes), so there is nothing to find.
 */
export async function stopOrphans(dataDir: string): Promise<number[]> {
  const orphans = runningDynamoDbLocals(dataDir);
  for (const pid of orphans) signal(pid, 'SIGKILL');
  while (orphans.some(isRunning)) await sleep(20);
  return orphans;
}

/** The processes of every DynamoDB Local running on `dataDir` (an absolute path), found through `/proc`. */
export function runningDynamoDbLocals(dataDir: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => {
    const args = commandLine(pid);
    const at = args.indexOf('-dbPath');
    return at >= 0 && args[at + 1] === dataDir && args.some((arg) => arg.includes('DynamoDB'));
  });
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** Whether a process is running (a zombie counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\)\s+Z\s/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
