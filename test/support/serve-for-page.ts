import { memoryIo, type RunningCommand, startCommand } from '@agentstep/cli/testing';

const SCRIPT = 'script.json';

/** `agentstep serve --auth dev` in this process, every turn playing `script`, allowing `origin`, with `args` added. */
export function serveForPage(script: unknown[], origin: string, args: string[] = []): RunningCommand {
  const io = memoryIo({ files: { [SCRIPT]: JSON.stringify(script) } });
  return startCommand(io, [
    'serve',
    '--port',
    '0',
    '--auth',
    'dev',
    '--script',
    SCRIPT,
    '--cors',
    origin,
    ...args,
  ]);
}
