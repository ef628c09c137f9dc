// The types of mixes.mjs for the TypeScript scripts that ask the same requests (scripts/bench-new-markets.ts).
import type { Case } from "./targets.mjs";

export function mixes(
  env?: Record<string, string | undefined>,
): Record<string, { about: string; cases: Case[]; spread?: boolean; without?: Record<string, string> }>;
