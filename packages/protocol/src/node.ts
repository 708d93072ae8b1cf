// What only Node.js runs (the console's bundle never imports it): agent versions.
export { agentVersion } from './agent/agent-version.js';
export { canonicalJson } from './agent/canonical-json.js';
