// The keeper's own process: `node keeper-main.js <.agentstep folder> <idle ms>`, started detached by
// openSharedDynamoDbLocal. Its output goes to the folder's store.log.
import { JavaMissingError } from './java-missing-error.js';
import { KEEPER_EXIT_JAVA_MISSING } from './keeper-process.js';
import { runStoreKeeper } from './store-keeper.js';

const [folder = '.agentstep', idle = '0'] = process.argv.slice(2);
try {
  await runStoreKeeper({ folder, idleMs: Number(idle) });
  process.exit(0);
} catch (error) {
  console.error(`${new Date().toISOString()} agentstep store keeper: ${(error as Error).message}`);
  process.exit(error instanceof JavaMissingError ? KEEPER_EXIT_JAVA_MISSING : 1);
}
