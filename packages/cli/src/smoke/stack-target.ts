import { AgentStepClient } from '@agentstep/client';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { signedFetch } from './signed-fetch.js';
import { SmokeSkip, type SmokeTarget } from './smoke-target.js';
import { triggeredTurn } from './triggered-turn.js';

/** Where a deployed stack is and how to reach it. */
export interface StackAddress {
  stack: string;
  region: string;
  /** A bearer token for a stack whose API takes JWTs; without it, requests are SigV4-signed. */
  token?: string;
}

/**
 * A stack deployed from `AgentStepSmokeStack` (a stack whose outputs include `SmokeEventSource`), read
 * from CloudFormation: its API at `ApiUrl`, its trigger an event of `SmokeEventSource` on the default
 * bus, its turns the executions of `LiveAliasArn`, its console at `ConsoleUrl` when it has one.
 */
export async function stackTarget({ stack, region, token }: StackAddress): Promise<SmokeTarget> {
  const outputs = await stackOutputs(stack, region);
  const required = (name: string) => {
    const value = outputs[name];
    if (value === undefined)
      throw new Error(
        `stack ${stack} (${region}) has no output ${name}: smoke checks a stack deployed from AgentStepSmokeStack (README: Your first deploy)`,
      );
    return value;
  };
  const source = required('SmokeEventSource');
  const live = required('LiveAliasArn');
  const baseUrl = required('ApiUrl').replace(/\/+$/, '');
  const consoleUrl = outputs.ConsoleUrl;
  return {
    name: `stack ${stack} (${region})`,
    client: new AgentStepClient(
      token === undefined ? { baseUrl, fetch: signedFetch(region) } : { baseUrl, token },
    ),
    consoleConfig: async (signal) => {
      if (consoleUrl === undefined) return new SmokeSkip('the stack serves no console (api.console)');
      const response = await fetch(new URL('config.json', consoleUrl), { signal });
      if (!response.ok) throw new Error(`GET ${consoleUrl}config.json answered ${response.status}`);
      return response.json();
    },
    trigger: (message, signal) => triggeredTurn({ region, source, live, message }, signal),
  };
}

/** The stack's outputs by key; an error that names the stack and region when it cannot be read. */
async function stackOutputs(stack: string, region: string): Promise<Record<string, string>> {
  const client = new CloudFormationClient({ region });
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stack }));
    const outputs = Stacks?.[0]?.Outputs ?? [];
    return Object.fromEntries(
      outputs.flatMap(({ OutputKey, OutputValue }) =>
        OutputKey && OutputValue ? [[OutputKey, OutputValue]] : [],
      ),
    );
  } catch (error) {
    throw new Error(
      `could not read stack ${stack} in ${region}: ${error instanceof Error ? error.message : error}`,
      {
        cause: error,
      },
    );
  } finally {
    client.destroy();
  }
}
