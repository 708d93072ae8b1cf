import { createRequire } from 'node:module';
import { STACK_OUTPUTS } from '@agentstep/protocol';
import { CfnOutput, RemovalPolicy, type StackProps } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import type { Construct } from 'constructs';
import type { AgentStepApiOptions } from './agent-step-api.js';
import { AgentStepStack } from './agent-step-stack.js';

/** The source of the events the smoke stack's rule turns into turns: its `SmokeEventSource` output. */
export const SMOKE_EVENT_SOURCE = 'agentstep.smoke';

/** The smoke agent file, as this package exports it (`smoke/` ships beside `dist/`). */
const SMOKE_AGENT = '@agentstep/cdk/smoke/agent.js';

/** Props of {@link AgentStepSmokeStack}. */
export interface AgentStepSmokeStackProps extends StackProps {
  /** The smoke agent's HTTP API. @default - the API, with IAM authorization */
  readonly api?: AgentStepApiOptions;
}

/**
 * The stack `agentstep smoke --stack NAME` checks end to end: the smoke agent (`smoke/agent.js`,
 * played by its script, no model called) with its API, and a rule on the default bus that starts a
 * one-step turn for each event of {@link SMOKE_EVENT_SOURCE}, its `detail.message` the message.
 * Everything it creates is deleted by `cdk destroy` (`removalPolicy: DESTROY`).
 */
export class AgentStepSmokeStack extends AgentStepStack {
  /** The rule that starts a turn for each smoke event. */
  readonly trigger: Rule;

  constructor(scope: Construct, id: string, props: AgentStepSmokeStackProps = {}) {
    const { api, ...stackProps } = props;
    super(scope, id, {
      description:
        'AgentStep smoke test: the scripted smoke agent, its API and an EventBridge trigger (npx agentstep smoke); cdk destroy deletes all of it',
      ...stackProps,
      agent: { agent: smokeAgentFile(), removalPolicy: RemovalPolicy.DESTROY, ...(api ? { api } : {}) },
    });
    this.trigger = new Rule(this, 'SmokeTrigger', {
      description: `Starts a turn of the smoke agent for each ${SMOKE_EVENT_SOURCE} event naming this stack (agentstep smoke).`,
      // Every smoke stack of the account and region shares the bus: each starts its own events' turns.
      eventPattern: { source: [SMOKE_EVENT_SOURCE], detail: { stack: [this.stackName] } },
    });
    // One model step: the turn runs the script's first call and ends `limit`, never reaching the
    // batch whose call waits for approval.
    this.agent.runOnEvent(this.trigger, { message: '<$.detail.message>', maxSteps: 1 });
    new CfnOutput(this, STACK_OUTPUTS.smokeEventSource, {
      description:
        'Marks a smoke stack: an event of this source on the default bus, {"stack": <this stack>, "message": …} as detail, starts a one-step turn.',
      value: SMOKE_EVENT_SOURCE,
    });
  }
}

/**
 * The smoke agent file's absolute path, through the package's own export (a self-reference), so it
 * resolves from the sources (`src/`) and from the published build (`dist/src/`) alike.
 */
function smokeAgentFile(): string {
  try {
    return createRequire(import.meta.url).resolve(SMOKE_AGENT);
  } catch (error) {
    throw new Error(
      `AgentStepSmokeStack could not find its agent file ${SMOKE_AGENT}: install @agentstep/cdk again (its package ships smoke/agent.js and exports it).`,
      { cause: error },
    );
  }
}
