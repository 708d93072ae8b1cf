import { fileURLToPath } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AgentStepSmokeStack } from '../src/agent-step-smoke-stack.js';
import { AgentStepStack } from '../src/agent-step-stack.js';
import type { AgentDeployment } from '../src/deployment-preference.js';

/**
 * The AgentStep app: the demo agent (examples/demo/agent.ts, played by its script), or a real model
 * chosen with context values, e.g.
 * `npm run cdk -- deploy -c model=bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0`, or
 * `-c model=openai:gpt-4o-mini -c modelApiKeySecret=agentstep/openai` (a plain-text secret). Its
 * HTTP API takes IAM-signed requests, or with `-c jwtIssuer=https://… -c jwtAudience=…` the JWTs
 * of that OIDC issuer; `-c console=true` adds the web console on CloudFront, signing in with that
 * issuer (its client id `-c consoleClientId=…`, else the audience). `-c deployment=canary` or
 * `linear` shifts new turns to a deploy gradually (decision 0042), else all at once. `-c smoke=true`
 * adds the stack `agentstep smoke` checks, AgentStepSmoke (the scripted smoke agent, deleted whole by
 * `cdk destroy`): `npm run cdk -- deploy -c smoke=true AgentStepSmoke`, then
 * `npx agentstep smoke --stack AgentStepSmoke`, then `npm run cdk -- destroy -c smoke=true AgentStepSmoke`.
 */
const app = new App();
const context = (key: string) => app.node.tryGetContext(key) as string | undefined;
const model = context('model');
const modelBaseUrl = context('modelBaseUrl');
const modelApiKeySecret = context('modelApiKeySecret');
const jwtIssuer = context('jwtIssuer');
const jwtAudience = context('jwtAudience');
// `-c console=true` gives the string; a cdk.json context value may be the boolean.
const withConsole = String(app.node.tryGetContext('console')) === 'true';
const withSmoke = String(app.node.tryGetContext('smoke')) === 'true';
const consoleClientId = context('consoleClientId');
// `-c deployment=canary` (or `linear`): how a deploy shifts new turns to it (decision 0042).
const deployment = context('deployment') as AgentDeployment['strategy'] | undefined;
if ((jwtIssuer === undefined) !== (jwtAudience === undefined))
  throw new Error('Give both -c jwtIssuer=… and -c jwtAudience=… for JWT authorization, or neither for IAM.');
if (consoleClientId !== undefined && !withConsole)
  throw new Error('-c consoleClientId=… is the web console’s client id: give -c console=true too.');
if (withConsole && jwtIssuer === undefined)
  throw new Error(
    'The web console (-c console=true) signs in with OpenID Connect: give -c jwtIssuer=… and -c jwtAudience=… too.',
  );
new AgentStepStack(app, 'AgentStep', {
  description: 'AgentStep: an event-sourced LLM agent loop on Step Functions and DynamoDB',
  agent: {
    // From this file, not the working directory: the app synthesizes from any folder.
    agent: fileURLToPath(new URL('../../examples/demo/agent.ts', import.meta.url)),
    ...(model ? { model } : {}),
    ...(modelBaseUrl ? { modelBaseUrl } : {}),
    ...(deployment ? { deployment: { strategy: deployment } } : {}),
    ...(jwtIssuer && jwtAudience
      ? {
          api: {
            auth: { jwt: { issuer: jwtIssuer, audience: jwtAudience } },
            ...(withConsole ? { console: consoleClientId ? { clientId: consoleClientId } : true } : {}),
          },
        }
      : {}),
  },
  ...(modelApiKeySecret ? { modelApiKeySecret } : {}),
});
if (withSmoke) new AgentStepSmokeStack(app, 'AgentStepSmoke');
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
