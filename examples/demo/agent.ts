import { defineAgent } from '@agentstep/runtime';

/**
 * The demo agent: the built-in demo and workspace toolsets, played by the demo script unless a
 * model is chosen (`--model`, or `-c model=…` when deploying). The repository's CDK app deploys it.
 */
export default defineAgent({
  name: 'demo',
  toolsets: ['demo', 'workspace'],
  script: '../demo-script.json',
});
