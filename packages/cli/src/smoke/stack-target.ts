import { AgentStepClient } from '@agentstep/client';
import { STACK_OUTPUTS } from '@agentstep/protocol';
import { sigV4Fetch } from '@agentstep/runtime/sigv4';
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SmokeSkip, type SmokeTarget } from './smoke-target.js';
import { triggeredTurn } from './triggered-turn.js';

/** Which stack to check, where, and how to reach its API. */
export interface StackAddress {
  stack: string;
  /** @default the AWS environment's (`AWS_REGION`, the profile's region, …) */
  region?: string;
  /** A bearer token for a stack whose API takes JWTs; without it, requests are SigV4-signed. */
  token?: string;
}

/**
 * A stack deployed from `AgentStepSmokeStack` (its outputs include `SmokeEventSource`), read from
 * CloudFormation with the AWS environment's credentials: its API at `ApiUrl`, its trigger an event
 * of `SmokeEventSource` naming the stack on the default bus, its turns the executions of
 * `LiveAliasArn`, its console at `ConsoleUrl` when it has one.
 */
export async function stackTarget({ stack, region, token }: StackAddress): Promise<SmokeTarget> {
  const cloudFormation = new CloudFormationClient(region ? { region } : {});
  try {
    const where = await regionOf(cloudFormation);
    const outputs = outputsOf(await describe(cloudFormation, stack, where), where);
    const baseUrl = outputs(STACK_OUTPUTS.apiUrl).replace(/\/+$/, '');
    const trigger = { region: where, stack, source: outputs(STACK_OUTPUTS.smokeEventSource) };
    const live = outputs(STACK_OUTPUTS.liveAliasArn);
    const consoleUrl = outputs(STACK_OUTPUTS.consoleUrl, 'optional');
    return {
      name: `stack ${stack} (${where})`,
      client: new AgentStepClient(
        token === undefined ? { baseUrl, fetch: signedApiFetch(where) } : { baseUrl, token },
      ),
      consoleConfig: async (signal) => {
        if (consoleUrl === undefined) return new SmokeSkip('the stack serves no console (api.console)');
        const response = await fetch(new URL('config.json', consoleUrl), { signal });
        if (!response.ok) throw new Error(`GET ${consoleUrl}config.json answered ${response.status}`);
        return response.json();
      },
      trigger: (message, signal) => triggeredTurn({ ...trigger, live, message }, signal),
    };
  } finally {
    cloudFormation.destroy();
  }
}

/** The region the client was given or found in the AWS environment; an error saying where to set one. */
async function regionOf(client: CloudFormationClient): Promise<string> {
  try {
    return await client.config.region();
  } catch (error) {
    throw new Error('no AWS region: set AWS_REGION, give your AWS profile a region, or pass --region.', {
      cause: error,
    });
  }
}

/** The stack as CloudFormation describes it; an error naming the stack and region when it cannot. */
async function describe(client: CloudFormationClient, stack: string, region: string): Promise<Stack> {
  try {
    const { Stacks = [] } = await client.send(new DescribeStacksCommand({ StackName: stack }));
    const [described] = Stacks;
    if (described === undefined) throw new Error('CloudFormation describes no such stack');
    return described;
  } catch (error) {
    throw new Error(
      `could not read stack ${stack} in ${region}: ${error instanceof Error ? error.message : error}`,
      {
        cause: error,
      },
    );
  }
}

/** Reads the stack's outputs by name: a missing one is an error that says what the stack is. */
function outputsOf(described: Stack, region: string) {
  const values = new Map(
    (described.Outputs ?? []).map(({ OutputKey, OutputValue }) => [OutputKey, OutputValue]),
  );
  function output(name: string): string;
  function output(name: string, optional: 'optional'): string | undefined;
  function output(name: string, optional?: 'optional'): string | undefined {
    const value = values.get(name);
    if (value !== undefined || optional) return value;
    throw new Error(
      `stack ${described.StackName} (${region}, ${described.StackStatus}) has no output ${name}: smoke checks a stack deployed from AgentStepSmokeStack (README: Your first deploy)`,
    );
  }
  return output;
}

/** The smoke stack's API, IAM-authorized: each request SigV4-signed with the AWS environment's credentials. */
function signedApiFetch(region: string): typeof fetch {
  return sigV4Fetch({ service: 'execute-api', region, credentials: defaultProvider() });
}
