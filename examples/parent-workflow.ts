import type { AgentStep } from '@agentstep/cdk';
import { TURN_EVENT_TYPES } from '@agentstep/protocol';
import {
  Choice,
  Condition,
  DefinitionBody,
  Fail,
  IntegrationPattern,
  JsonPath,
  StateMachine,
  Succeed,
  TaskInput,
} from 'aws-cdk-lib/aws-stepfunctions';
import { StepFunctionsStartExecution } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';

/**
 * An example parent workflow: one step of a larger Step Functions workflow asks the agent for a
 * summary of `$.topic` and uses its answer. It starts the agent with `startExecution.sync:2` and
 * gets the turn's result as the child's output, even when the turn went on in fresh executions.
 * Its own execution name is the `requestId`, so a redriven parent does not start a second turn.
 * It starts the agent through its `live` alias, as every caller should (decision 0042): the turn
 * runs on the version the alias points at from its first step to its last.
 */
export class SummaryWorkflow extends Construct {
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, props: { agent: AgentStep }) {
    super(scope, id);
    const askAgent = new StepFunctionsStartExecution(this, 'AskAgent', {
      stateMachine: StateMachine.fromStateMachineArn(this, 'AgentLive', props.agent.live.arn),
      integrationPattern: IntegrationPattern.RUN_JOB, // .sync:2: waits, and returns the output as JSON
      input: TaskInput.fromObject({
        message: JsonPath.format(
          'Summarize what we know about {} in three sentences.',
          JsonPath.stringAt('$.topic'),
        ),
        requestId: JsonPath.stringAt('$$.Execution.Name'),
      }),
      resultSelector: { 'answer.$': '$.Output.answer', 'status.$': '$.Output.status' },
    });
    const summarized = new Succeed(this, 'Summarized');
    const noSummary = new Fail(this, 'NoSummary', {
      error: 'AgentDidNotFinish',
      cause: `The agent's turn did not end done (see its ${TURN_EVENT_TYPES.failed} event, or its session).`,
    });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      definitionBody: DefinitionBody.fromChainable(
        askAgent.next(
          new Choice(this, 'Done?')
            .when(Condition.stringEquals('$.status', 'done'), summarized)
            .otherwise(noSummary),
        ),
      ),
      tracingEnabled: true,
    });
    // Step Functions authorizes a start through an alias on the state machine's own ARN.
    props.agent.grantStartTurn(this.stateMachine);
  }
}
