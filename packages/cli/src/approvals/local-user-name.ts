import { userInfo } from 'node:os';

/** Who decides on this machine, as the log records it: the OS user name (`USER` where the OS has none). */
export function localUserName(): string {
  try {
    return userInfo().username;
  } catch {
    // userInfo throws for a user without a passwd entry (some containers).
    return process.env.USER ?? process.env.USERNAME ?? 'local';
  }
}
