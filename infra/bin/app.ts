import { readFileSync } from 'node:fs';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AgentStepStack } from '../src/agent-step-stack.js';

const app = new App();
new AgentStepStack(app, 'AgentStep', {
  description: 'AgentStep: an event-sourced LLM agent loop on Step Functions and DynamoDB',
  agent: {
    builtInTools: ['demo', 'workspace'],
    modelScript: readFileSync(new URL('../../examples/demo-script.json', import.meta.url), 'utf8'),
  },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
