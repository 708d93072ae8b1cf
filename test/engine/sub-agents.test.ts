import { LocalExecutionStarter } from '@agentstep/local';
import { type ContextOptions, GoalScriptedModel, type GoalScripts, systemClock } from '@agentstep/runtime';
import { builtInTools, type SubAgentDeps } from '@agentstep/runtime/tools';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, localAgent, resultItems } from '../support/harness.js';

const SCRIPTS: GoalScripts = {
  // The parent: asks two sub-agents at once, then answers.
  '': [
    [
      batch([
        'spawn_agents',
        {
          agents: [
            { role: 'quantum-historian', task: 'Who first proposed a quantum computer?' },
            { role: 'physicist', task: 'When was Shor’s algorithm published?', outputs: ['year'] },
          ],
        },
      ]),
      'Feynman proposed it; Shor published in 1994.<end>',
    ],
  ],
  // A sub-agent that tries to spawn one of its own, is refused, and answers itself.
  'quantum-historian': [
    [
      batch(['spawn_agent', { role: 'archivist', task: 'Find the 1981 talk.' }]),
      'Richard Feynman, 1981.<end>',
    ],
  ],
  physicist: ['Shor’s algorithm: {"year": 1994}<end>'],
};

/** An agent on the local engine whose tools include the agents toolset, run by the engine's starter. */
async function agentWithSubAgents(scripts: GoalScripts, context?: ContextOptions) {
  const model = new GoalScriptedModel(scripts);
  const callers: Array<string | undefined> = [];
  let deps: SubAgentDeps | undefined;
  const tools = builtInTools(['demo', 'agents'], {
    agents: {
      deps: (context) => {
        callers.push(context.stateMachine);
        return deps ?? expect.unreachable('the starter is not ready');
      },
    },
  });
  const agent = await localAgent({
    script: ['unused'],
    model: () => model,
    tools,
    ...(context ? { context } : {}),
  });
  const stores = { ...agent.stores, clock: systemClock };
  deps = { ...stores, starter: new LocalExecutionStarter(agent.engine, stores) };
  return { agent, model, callers };
}

describe.skipIf(dynamoEndpoint === '')('sub-agents on the synthesized state machine', () => {
  it('a sub-agent compacts its own context as any turn does (decision 0035)', async () => {
    const fetch = Array.from({ length: 14 }, (_, n) => batch(['blob', { bytes: 2_000 + n }]));
    const scripts: GoalScripts = {
      '': [[batch(['spawn_agent', { role: 'fetcher', task: 'Fetch fourteen blobs.' }]), 'Fetched.<end>']],
      fetcher: [[...fetch, 'Fourteen blobs fetched.<end>']],
    };
    const { agent, model } = await agentWithSubAgents(scripts, { windowTokens: 4_000 });
    const parent = await agent.turn('Have the fetcher fetch blobs.');
    expect(parent.output).toMatchObject({ status: 'done', answer: 'Fetched.' });
    // Every request but the parent's own (its session starts with the user's message) is the fetcher's.
    const fetcher = model.calls.filter(
      ({ messages }) => messages[0]?.content !== 'Have the fetcher fetch blobs.',
    );
    expect(fetcher.filter((request) => request.purpose === 'compaction').length).toBeGreaterThan(0);
    // Its last step sees a summary in place of its earlier steps.
    const steps = fetcher.filter((request) => request.purpose !== 'compaction');
    expect(steps).toHaveLength(15);
    expect(steps.at(-1)?.messages[0]?.content).toMatch(/^<summary>/);
    expect(parent.events.filter(({ event }) => event.type === 'compacted')).toEqual([]);
  });

  it('spawn_agents runs two sub-agents as their own turns and returns both answers in order; a sub-agent cannot spawn', async () => {
    const { agent, model, callers } = await agentWithSubAgents(SCRIPTS);
    const parent = await agent.turn('Tell me the history of quantum computing.');
    expect(parent.output).toMatchObject({
      status: 'done',
      answer: 'Feynman proposed it; Shor published in 1994.',
    });
    const [spawned] = resultItems(parent.events, `${parent.output.turn}.1`);
    expect(spawned).toEqual({
      tool: 'spawn_agents',
      status: 'success',
      content: [
        { role: 'quantum-historian', status: 'done', output: 'Richard Feynman, 1981.' },
        {
          role: 'physicist',
          status: 'done',
          output: 'Shor’s algorithm: {"year": 1994}',
          fields: { year: 1994 },
        },
      ],
    });
    // Each sub-agent saw only its task document, with its persona, in a session of its own.
    const historian = model.calls.find(({ messages }) =>
      messages[0]?.content.startsWith('<task role="quantum-historian"'),
    );
    expect(historian?.messages[0]?.content).toBe(
      '<task role="quantum-historian" parent-goal="main">\nWho first proposed a quantum computer?\n</task>',
    );
    expect(historian?.system.startsWith('You are a quantum-historian.')).toBe(true);
    // Its own spawn_agent call was refused when it ran, naming the limit; nothing more was started.
    const refused = model.calls.find(({ messages }) =>
      messages.some(({ content }) => content.includes('maxDepth 1')),
    );
    expect(refused?.messages[0]?.content).toContain('<task role="quantum-historian"');
    expect(model.calls.some(({ messages }) => messages[0]?.content.includes('archivist'))).toBe(false);
    // The engine named its own state machine in the InvokeTool payload, as Step Functions does (the
    // refused call asked for no deps).
    expect(callers).toHaveLength(1);
    for (const caller of callers) expect(caller).toMatch(/:stateMachine:/);
  });
});
