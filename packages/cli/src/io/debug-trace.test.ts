import { describe, expect, it } from 'vitest';
import { debugTrace } from './debug-trace.js';

describe('debugTrace', () => {
  const failure = new Error('the file cannot load', { cause: new TypeError('the tool is bad') });

  it.each([[{}], [{ AGENTSTEP_DEBUG: '' }], [{ AGENTSTEP_DEBUG: '0' }]])(
    'is empty unless asked for: %o',
    (env) => {
      expect(debugTrace(failure, env)).toBe('');
    },
  );

  it("gives the error's stack, then each cause's", () => {
    const trace = debugTrace(failure, { AGENTSTEP_DEBUG: '1' });
    expect(trace).toMatch(/^Error: the file cannot load\n\s+at /);
    expect(trace).toMatch(/\nCaused by: TypeError: the tool is bad\n\s+at /);
    expect(trace.endsWith('\n')).toBe(true);
  });

  it('stops at a cause seen before, and shows a thrown value that is not an Error as text', () => {
    const looped = new Error('looped');
    looped.cause = looped;
    expect(debugTrace(looped, { AGENTSTEP_DEBUG: '1' }).match(/looped/g)).toHaveLength(1);
    expect(debugTrace('plain', { AGENTSTEP_DEBUG: '1' })).toBe('plain\n');
  });
});
