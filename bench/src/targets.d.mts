// The types of targets.mjs for the TypeScript scripts that ask the same requests (scripts/bench-new-markets.ts).

/** A request of GET /v1/markets in the app's parameters (mixes.mjs). */
export interface Case {
  status: string;
  category?: string;
  q?: string;
  sortBy: string;
  sortOrder?: "ASC" | "DESC";
  limit: number;
  offset: number;
}

export function listQuery(c: Case): string;
