import {
  type AdvanceTurnOutput,
  parseAgentfile,
  renderTaskDocument,
  type StoredEvent,
  type TurnInput,
} from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { systemClock } from '../clock/clock.js';
import { inMemoryStores } from '../in-memory-stores.js';
import { GoalScriptedModel, type GoalScripts } from '../model/goal-scripted-model.js';
import type { ExecutionStarter } from '../session/execution-starter.js';
import { advanceTurn } from '../steps/advance-turn.js';
import { finishTurn } from '../steps/finish-turn.js';
import { invokeTool } from '../steps/invoke-tool.js';
import { modelStep } from '../steps/model-step.js';
import { startTurn } from '../steps/start-turn.js';
import { readUntil } from '../testing/read-until.js';
import { builtInTools } from '../tools/built-in-tools.js';
import { defineTool, type Tool, type ToolContext } from '../tools/define-tool.js';
import { demoTools } from '../tools/demo-tools.js';
import { runTool } from '../tools/run-tool.js';
import { createToolset } from '../tools/toolset.js';
import { advanceWorkflow } from '../workflows/advance-workflow.js';
import { startWorkflow } from '../workflows/start-workflow.js';
import { agentTools, type SubAgentsConfig } from './agent-tools.js';
import { subAgentIds } from './sub-agent-ids.js';

type Stores = ReturnType<typeof inMemoryStores>;

/**
 * An ExecutionStarter that runs each turn in this process through the loop's own steps, as the
 * state machine does (StartTurn, ModelStep, the calls, AdvanceTurn, FinishTurn); starting a turn
 * already started starts nothing, as Step Functions does for the same execution name.
 */
function inProcessStarter(stores: Stores, model: GoalScriptedModel, tools: () => readonly Tool[]) {
  const started: TurnInput[] = [];
  const running = new Map<string, Promise<void>>();
  const starter: ExecutionStarter = {
    start: async (input) => {
      if (!running.has(input.turn)) {
        started.push(input);
        running.set(input.turn, runLoop(input, stores, model, tools()));
      }
      return input.turn;
    },
    stop: async () => {},
  };
  return { starter, started, running };
}

async function runLoop(input: TurnInput, stores: Stores, model: GoalScriptedModel, tools: readonly Tool[]) {
  const toolset = createToolset(tools);
  const deps = {
    ...stores,
    model,
    clock: systemClock,
    toolset,
    tools: toolset.descriptions,
    targetOf: () => 'tools',
  };
  const { session, turn } = input;
  let step: AdvanceTurnOutput = await modelStep(await startTurn(input, deps), deps);
  while ('calls' in step && (step.next === 'tools' || step.next === 'results')) {
    const { batch } = step;
    await Promise.all(step.calls.map((call) => invokeTool({ ...call, session, turn, batch }, deps)));
    step = await advanceTurn(step, deps);
  }
  await finishTurn({ ...step, session, turn, maxSteps: step.maxSteps }, deps);
}

/** The agents toolset on in-memory stores, its sub-agents played by `scripts` (by role). */
function setup(scripts: GoalScripts, options: Partial<SubAgentsConfig> = {}, extraTools: Tool[] = []) {
  const stores = inMemoryStores();
  const model = new GoalScriptedModel(scripts);
  let tools: Tool[] = [];
  const run = inProcessStarter(stores, model, () => tools);
  tools = [
    ...demoTools,
    ...extraTools,
    ...agentTools({ deps: () => ({ ...stores, starter: run.starter }), pollMs: 5, ...options }),
  ];
  const tool = (name: string) => tools.find((candidate) => candidate.name === name) ?? expect.unreachable();
  const call = (name: string, args: Record<string, unknown>, context: Partial<ToolContext> = {}) =>
    runTool(tool(name), args, { session: 's-parent', turn: 't-1', batch: 't-1.1', position: 0, ...context });
  return { ...run, stores, model, call };
}

const userEvents = (events: readonly StoredEvent[]) =>
  events.flatMap(({ event }) => (event.type === 'user' ? [event] : []));
const turnEnds = (events: readonly StoredEvent[]) =>
  events.flatMap(({ event }) => (event.type === 'turn_end' ? [event] : []));

describe('spawn_agent', () => {
  it('E7 gives the sub-agent the bare task document, its persona, and 30 steps; returns its answer', async () => {
    const { call, stores, started, model } = setup({ 'quantum-historian': ['Shor, 1994.<end>'] });
    const task = 'Research the history of quantum computing.\nFocus on key papers.';
    const outcome = await call('spawn_agent', { role: 'quantum-historian', task });
    expect(outcome).toEqual({
      tool: 'spawn_agent',
      status: 'success',
      content: { role: 'quantum-historian', status: 'done', output: 'Shor, 1994.' },
    });
    const child = subAgentIds({ session: 's-parent', batch: 't-1.1', position: 0 }, 0);
    expect(child.session).toMatch(/^s-parent--sub-[0-9a-f]{12}$/);
    const [user] = userEvents(await stores.log.read(child.session));
    expect(user?.content).toBe(
      [
        '<task role="quantum-historian" parent-goal="main">',
        'Research the history of quantum computing.',
        'Focus on key papers.',
        '</task>',
      ].join('\n'),
    );
    expect(user?.instructions).toBe('You are a quantum-historian.');
    expect(model.calls[0]?.system).toContain('You are a quantum-historian.');
    expect(started).toEqual([{ session: child.session, turn: child.turn, maxSteps: 30 }]);
  });

  it('E5 returns the fields of its answer’s first JSON object when outputs are asked for', async () => {
    const { call, stores } = setup({
      analyst: ['Found it: {"year": 1981, "who": "Feynman"} and {"year": 0}<end>'],
    });
    const outcome = await call('spawn_agent', {
      role: 'analyst',
      task: 'Who proposed quantum computers, and when?',
      outputs: ['year', 'who', 'where'],
    });
    expect(outcome.content).toEqual({
      role: 'analyst',
      status: 'done',
      output: 'Found it: {"year": 1981, "who": "Feynman"} and {"year": 0}',
      fields: { year: 1981, who: 'Feynman' },
    });
    const child = subAgentIds({ session: 's-parent', batch: 't-1.1', position: 0 }, 0);
    const [user] = userEvents(await stores.log.read(child.session));
    expect(user?.content).toBe(
      renderTaskDocument({
        render: 'task',
        workflow: { name: '' },
        task: {
          role: 'analyst',
          parent_goal: 'main',
          task: 'Who proposed quantum computers, and when?',
          outputs: ['year', 'who', 'where'],
          include_prior: false,
          interpolate: false,
        },
      }),
    );
    expect(user?.content).toContain(
      'Return your response as JSON with the following fields: year, who, where',
    );
  });

  it('says how a sub-agent that did not finish ended', async () => {
    const { call } = setup(
      { looper: [[`<execute>[{"name": "echo", "args": {"text": "x"}}]</execute>`]] },
      { maxSteps: 1 },
    );
    const outcome = await call('spawn_agent', { role: 'looper', task: 'Loop.' });
    expect(outcome.content).toEqual({
      role: 'looper',
      status: 'limit',
      output: '',
      message: expect.stringContaining('after 1 model steps'),
    });
  });

  it('names the workflow goal whose child run spawns it as its parent goal', async () => {
    const { call, stores } = setup({ critic: ['Too slow.<end>'] });
    const parsed = parseAgentfile('NAME w\nGOAL research "Research."\nRUN main USING research\n');
    if (!parsed.ok) expect.unreachable(JSON.stringify(parsed.errors));
    const deps = { ...stores, clock: systemClock };
    await startWorkflow({ run: 'wf-1', spec: parsed.spec, inputs: {} }, deps);
    const state = await advanceWorkflow({ state: { run: 'wf-1' }, execution: 'x-1' }, deps);
    const goalSession = state.goals?.[0]?.session ?? expect.unreachable('no goal turn was planned');
    expect(goalSession).toBe('wf-1.1');
    await call('spawn_agent', { role: 'critic', task: 'Criticize.' }, { session: goalSession });
    const child = subAgentIds({ session: goalSession, batch: 't-1.1', position: 0 }, 0);
    const [user] = userEvents(await stores.log.read(child.session));
    expect(user?.content).toBe('<task role="critic" parent-goal="research">\nCriticize.\n</task>');
  });

  it('re-attaches a repeated call to the sub-agent it started: no second turn, the same result', async () => {
    const { call, stores, started, model } = setup({ historian: ['Once.<end>', 'Twice.<end>'] });
    const args = { role: 'historian', task: 'Tell it.' };
    const [first, concurrent] = await Promise.all([call('spawn_agent', args), call('spawn_agent', args)]);
    const again = await call('spawn_agent', args);
    for (const outcome of [first, concurrent, again]) {
      expect(outcome.content).toEqual({ role: 'historian', status: 'done', output: 'Once.' });
    }
    expect(started).toHaveLength(1);
    expect(model.calls).toHaveLength(1);
    const events = await stores.log.read(
      subAgentIds({ session: 's-parent', batch: 't-1.1', position: 0 }, 0).session,
    );
    expect(userEvents(events)).toHaveLength(1);
    expect(turnEnds(events)).toHaveLength(1);
    // Another call (another position) is another sub-agent.
    const other = { role: 'historian', task: 'Tell it again.' };
    expect((await call('spawn_agent', other, { position: 1 })).content).toMatchObject({ output: 'Twice.' });
    expect(started).toHaveLength(2);
  });

  it('refuses to spawn from a sub-agent’s session, naming the limit, and starts nothing', async () => {
    const { call, started } = setup({});
    const outcome = await call(
      'spawn_agent',
      { role: 'deep', task: 'Go deeper.' },
      { session: 's-parent--sub-0123456789ab' },
    );
    expect(outcome).toEqual({
      tool: 'spawn_agent',
      status: 'failure',
      content:
        'Sub-agents may nest 1 level deep (maxDepth 1), and this session is at depth 1: it cannot spawn sub-agents. Do the task yourself.',
    });
    expect(started).toEqual([]);
  });

  it('refuses a sub-agent’s own spawn_agent call when it runs, though the sub-agent is shown the tool', async () => {
    const nested = `<execute>[{"name": "spawn_agent", "args": {"role": "helper", "task": "Help."}}]</execute>`;
    const { call, stores, started } = setup({ lead: [[nested, 'Did it alone.<end>']] });
    const outcome = await call('spawn_agent', { role: 'lead', task: 'Lead.' });
    expect(outcome.content).toEqual({ role: 'lead', status: 'done', output: 'Did it alone.' });
    expect(started).toHaveLength(1);
    const child = subAgentIds({ session: 's-parent', batch: 't-1.1', position: 0 }, 0);
    const result = (await stores.log.read(child.session)).find(({ event }) => event.type === 'result');
    expect(JSON.parse(result?.event.content ?? '[]')).toEqual([
      { tool: 'spawn_agent', status: 'failure', content: expect.stringContaining('maxDepth 1') },
    ]);
  });

  it('asks the sub-agent to stop when the call times out', async () => {
    const slow = `<execute>[{"name": "sleep", "args": {"ms": 200, "value": "z"}}]</execute>`;
    const { call, running, stores } = setup({ sleeper: [[slow, 'Never said.<end>']] }, { timeoutMs: 50 });
    const outcome = await call('spawn_agent', { role: 'sleeper', task: 'Sleep.' });
    expect(outcome).toMatchObject({
      status: 'failure',
      content: 'spawn_agent did not finish within 50 ms and was stopped.',
    });
    const child = subAgentIds({ session: 's-parent', batch: 't-1.1', position: 0 }, 0);
    await running.get(child.turn);
    const ends = turnEnds(await stores.log.read(child.session));
    expect(ends.map(({ payload }) => payload.status)).toEqual(['cancelled']);
  });
});

/** A `wait_for_gate` tool whose calls wait until the test opens the gate. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((settle) => {
    open = settle;
  });
  const tool = defineTool({
    name: 'wait_for_gate',
    description: 'Waits until the test opens the gate.',
    input: z.object({}),
    handler: async () => {
      await opened;
      return 'through';
    },
  });
  return { tool, open };
}

describe('spawn_agent, when its turn is cancelled', () => {
  it('stops waiting and asks the sub-agent to stop', async () => {
    const { tool, open } = gate();
    const waits = '<execute>[{"name": "wait_for_gate", "args": {}}]</execute>';
    const { call, running, stores } = setup({ sleeper: [[waits, 'Never said.<end>']] }, {}, [tool]);
    await stores.log.acquireTurn('s-parent', 't-1');
    const outcome = call('spawn_agent', { role: 'sleeper', task: 'Sleep.' });
    const child = subAgentIds({ session: 's-parent', batch: 't-1.1', position: 0 }, 0);
    // The sub-agent's call runs (and cannot end) when the parent's turn is asked to stop.
    const hasCall = (events: readonly StoredEvent[]) => events.some(({ event }) => event.type === 'call');
    await readUntil(() => stores.log.read(child.session), hasCall);
    await stores.log.requestCancel('s-parent', 't-1');
    expect(await outcome).toEqual({
      tool: 'spawn_agent',
      status: 'failure',
      content: `Turn t-1 was cancelled: its sub-agent in ${child.session} was asked to stop.`,
    });
    open();
    await running.get(child.turn);
    const ends = turnEnds(await stores.log.read(child.session));
    expect(ends.map(({ payload }) => payload.status)).toEqual(['cancelled']);
  });
});

describe('spawn_agents', () => {
  it('runs the sub-agents at once and returns their results in the order given', async () => {
    const slow = `<execute>[{"name": "sleep", "args": {"ms": 30, "value": "z"}}]</execute>`;
    const { call, started, stores } = setup({
      tortoise: [[slow, 'Slow and steady.<end>']],
      hare: ['Fast.<end>'],
    });
    const outcome = await call('spawn_agents', {
      agents: [
        { role: 'tortoise', task: 'Race.' },
        { role: 'hare', task: 'Race.', outputs: ['time'] },
      ],
    });
    expect(outcome.content).toEqual([
      { role: 'tortoise', status: 'done', output: 'Slow and steady.' },
      { role: 'hare', status: 'done', output: 'Fast.', fields: {} },
    ]);
    const [tortoise, hare] = [0, 1].map((index) =>
      subAgentIds({ session: 's-parent', batch: 't-1.1', position: 0 }, index),
    );
    expect(started.map(({ session }) => session)).toEqual([tortoise?.session, hare?.session]);
    // The hare was asked before the tortoise ended: they ran at once.
    const [hareAsked] = userEvents(await stores.log.read(hare?.session ?? ''));
    const [tortoiseEnded] = turnEnds(await stores.log.read(tortoise?.session ?? ''));
    expect(hareAsked?.timestamp).toBeLessThan(tortoiseEnded?.timestamp ?? 0);
  });

  it('takes one to ten sub-agents, each with a role that is a name and no other keys', async () => {
    const tool = agentTools({ deps: () => expect.unreachable() }).find(({ name }) => name === 'spawn_agents');
    const schema = tool?.input ?? expect.unreachable();
    const agents = Array.from({ length: 11 }, () => ({ role: 'r', task: 't' }));
    expect(schema.safeParse({ agents }).success).toBe(false);
    expect(schema.safeParse({ agents: [{ role: 'a "role"', task: 't' }] }).success).toBe(false);
    expect(schema.safeParse({ agents: [{ role: 'r', task: 't', extra: 1 }] }).success).toBe(false);
    expect(schema.safeParse({ agents: [{ role: 'r', task: 't', outputs: ['a'] }] }).success).toBe(true);
  });
});

describe('the agents toolset', () => {
  it('fails its calls with a clear message where no execution starter is configured', async () => {
    const [spawn] = builtInTools(['agents']);
    const outcome = await runTool(
      spawn ?? expect.unreachable(),
      { role: 'r', task: 't' },
      {
        session: 's',
        turn: 't',
        batch: 't.1',
        position: 0,
      },
    );
    expect(outcome).toEqual({
      tool: 'spawn_agent',
      status: 'failure',
      content: 'This deployment cannot run sub-agents: it has no execution starter configured.',
    });
  });
});
