/**
 * The fixed block of decision E6 that follows `</current-goal>` in a CONVERGE goal's document:
 * trusted text, written as is.
 */
export const CONVERGENCE_INSTRUCTION = `<convergence-instruction>
This is a convergence goal. Review your previous iterations in <convergence-history> and refine your output.
When you are confident that further refinement would not meaningfully improve the result, output ONLY the word: CONVERGED
Do not output CONVERGED prematurely. Only converge when the output is truly stable and complete.
</convergence-instruction>`;
