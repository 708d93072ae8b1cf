import { render } from 'preact';
import { App } from './app.js';
import { messageOf } from './common/message-of.js';
import { loadConsoleConfig } from './load-console-config.js';
import { initialSignIn } from './sign-in/initial-sign-in.js';

const root = document.getElementById('app');
if (root === null) throw new Error('The console page has no #app element to render into.');
try {
  const config = await loadConsoleConfig();
  render(<App config={config} initial={await initialSignIn(config)} />, root);
} catch (error) {
  root.textContent = `The console could not start: ${messageOf(error)}`;
}
