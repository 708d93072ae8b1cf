import { describe, expect, it } from 'vitest';
import { projectNames } from './project-names.js';

describe('projectNames', () => {
  it.each([
    ['my-agent', { packageName: 'my-agent', agentName: 'my-agent', stackName: 'my-agent' }],
    [
      '/tmp/work/support_bot',
      { packageName: 'support_bot', agentName: 'support_bot', stackName: 'support-bot' },
    ],
    ['My Agent!', { packageName: 'my-agent', agentName: 'My-Agent', stackName: 'My-Agent' }],
    ['2nd.agent', { packageName: '2nd.agent', agentName: 'nd-agent', stackName: 'nd-agent' }],
    ['_private', { packageName: 'private', agentName: 'private', stackName: 'private' }],
    ['123', { packageName: '123', agentName: 'agent', stackName: 'agent' }],
    ['été', { packageName: 't', agentName: 't', stackName: 't' }],
    ['...', { packageName: 'agent', agentName: 'agent', stackName: 'agent' }],
  ])('names the project in %s', (directory, names) => {
    expect(projectNames(directory)).toEqual(names);
  });

  it('keeps an agent name to 64 characters', () => {
    expect(projectNames('a'.repeat(100)).agentName).toBe('a'.repeat(64));
  });
});
