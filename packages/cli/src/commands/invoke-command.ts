import { AGENT_STATE_MACHINE } from '@agentstep/local';
import { agentOptions } from '../agent-file/agent-options.js';
import type { CliIo } from '../io/cli-io.js';
import { debugTrace } from '../io/debug-trace.js';
import { parseInvokeOptions } from '../local/invoke-options.js';
import { withEngine } from '../local/open-engine.js';

/**
 * `agentstep invoke`: starts one execution of the agent's state machine with `--input`, exactly as
 * an AWS service would (EventBridge, a parent state machine, a queue), waits for the turn to end
 * across executions and prints the execution's output as one JSON line (with `--events`, then each
 * event it published, as EventBridge would get it). Exit 0 when the execution
 * succeeded, whatever the turn's status; 1 when it failed, its error on stderr.
 */
export async function invokeCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseInvokeOptions(args);
  const notice = (text: string) => io.stderr(`agentstep invoke: ${text}\n`);
  const agent = await agentOptions(options.agent, io, notice);
  return withEngine(agent, io, notice, async ({ engine }) => {
    try {
      const { output } = await engine.execute(AGENT_STATE_MACHINE, options.input);
      io.stdout(`${JSON.stringify(output)}\n`);
      // As EventBridge would deliver them: the turn's end event, one JSON line each.
      if (options.events) for (const event of engine.eventBus.events) io.stdout(`${JSON.stringify(event)}\n`);
      return 0;
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      const { name, message } = cause instanceof Error ? cause : { name: 'Error', message: String(cause) };
      io.stderr(`agentstep invoke: the execution failed: ${name}: ${message}\n${debugTrace(error)}`);
      return 1;
    }
  });
}
