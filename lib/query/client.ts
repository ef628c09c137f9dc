// The one QueryClient factory of the app, for server pages and the browser provider alike (TanStack
// Query's nextjs-app-prefetching shape): a fresh client per server render, one per browser session.
import { QueryClient, isServer } from "@tanstack/react-query";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Server-prefetched data is fresh on arrival: no immediate refetch after hydration.
      queries: { staleTime: 15_000, refetchOnWindowFocus: true, retry: 1 },
    },
  });
}

let browserClient: QueryClient | undefined;

/** On the server a new client for every call (never shared between requests); in the browser always the same one. */
export function getQueryClient() {
  if (isServer) return makeQueryClient();
  return (browserClient ??= makeQueryClient());
}
