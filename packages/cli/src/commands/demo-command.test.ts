import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';

describe('agentstep demo', () => {
  it('runs the scripted agent: a parallel batch with one failure, results in call order, context rebuilt', async () => {
    const io = memoryIo();
    expect(await main(['demo'], io)).toBe(0);
    const output = io.out.join('');
    expect(output).toContain('The model is scripted');
    expect(output).toMatch(
      /success {2}echo[\s\S]*success {2}sleep[\s\S]*failure {2}fail: "this tool always fails"/,
    );
    expect(output).toContain('{"tools_executed":3,"success_count":2,"failure_count":1}');
    expect(output).toContain("the model's context, rebuilt from 9 logged events");
    expect(output).toContain('[user]\n<results>');
  });
});
