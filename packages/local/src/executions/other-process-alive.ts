/**
 * Whether process `pid` (not this one) still runs on this machine. A pid the system has given to
 * another process since counts as alive: its turns are then left to their leases, as before.
 */
export function otherProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
