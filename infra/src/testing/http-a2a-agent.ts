import { defineAgent } from '@agentstep/runtime';

/** A fixture agent with a remote A2A agent on plain HTTP, a token in its query: it cannot deploy. */
export default defineAgent({
  name: 'http_a2a',
  a2aAgents: [{ name: 'internal', url: 'http://agent.internal.example.com:8080/?token=do-not-print' }],
});
