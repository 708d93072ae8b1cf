import { AgentStep, AgentStepSmokeStack } from '@agentstep/cdk';
import { App, Stack } from 'aws-cdk-lib';

// The CDK app `npx cdk deploy` deploys: one stack with your agent (agent.ts) on Step Functions,
// DynamoDB and Lambda, your tools bundled into its tools Lambda.
const app = new App();
const stack = new Stack(app, '{{stackName}}');
new AgentStep(stack, 'Agent', { agent: 'agent.ts' });
// Check AgentStep in your account: npx cdk deploy -c smoke=true AgentStepSmoke, then npx agentstep smoke --stack AgentStepSmoke, then npx cdk destroy -c smoke=true AgentStepSmoke.
if (String(app.node.tryGetContext('smoke')) === 'true') new AgentStepSmokeStack(app, 'AgentStepSmoke');
