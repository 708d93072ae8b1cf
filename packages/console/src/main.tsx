import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root === null) throw new Error('The console page has no #app element to render into.');
render(<App />, root);
