/** A cost estimate in US dollars, with enough digits for the fractions of a cent one model step costs. */
export function formatUsd(usd: number): string {
  return `$${usd < 0.01 ? usd.toFixed(5) : usd.toFixed(2)}`;
}
