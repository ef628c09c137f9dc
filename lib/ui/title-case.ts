// Apart from format.ts so the list's filters (a client island) do not pull in its Intl formatters.
/** "RESOLVED" → "Resolved" */
export const titleCase = (s: string) => s.charAt(0) + s.slice(1).toLowerCase();
