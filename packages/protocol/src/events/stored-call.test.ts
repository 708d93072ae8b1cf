import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchEvents } from '../parser/batch-events.js';
import { storedCall, storedCallName } from './stored-call.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('storedCall', () => {
  it('reads a call the parser wrote without parsing its text again, as one frozen call for every reader', () => {
    const [event] = batchEvents('[{"name": "echo", "args": {"text": "once"}}]');
    const content = event?.type === 'call' ? event.content : '';
    const parse = vi.spyOn(JSON, 'parse');
    const first = storedCall(content, 0);
    const again = storedCall(content, 3);
    expect(parse).not.toHaveBeenCalled();
    expect(first).toEqual({ index: 0, ok: true, call: { name: 'echo', args: { text: 'once' } } });
    expect(again).toMatchObject({ index: 3, ok: true });
    expect(again.ok && first.ok && again.call === first.call).toBe(true);
    expect(first.ok && Object.isFrozen(first.call.args)).toBe(true);
  });

  it('parses a call it has not seen once, then remembers it', () => {
    const content = JSON.stringify({ name: 'count', args: { n: 1, seen: 'first time' } });
    const parse = vi.spyOn(JSON, 'parse');
    expect(storedCall(content, 1)).toMatchObject({ ok: true, call: { name: 'count' } });
    expect(storedCall(content, 1)).toMatchObject({ ok: true, call: { name: 'count' } });
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('checks an element that is not a call each time, naming its position, and text that is not JSON', () => {
    const invalid = JSON.stringify({ name: 'echo', args: [1] });
    expect(storedCall(invalid, 2)).toMatchObject({ ok: false, reason: expect.stringContaining('index 2') });
    expect(storedCallName(invalid)).toBe('echo');
    expect(storedCall('not json', 0)).toMatchObject({ ok: false, element: 'not json' });
    expect(storedCallName('not json')).toBe('');
  });
});
