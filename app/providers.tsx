"use client";
// One QueryClient per browser session (per request on the server), shared by every client component.
import { useEffect } from "react";
import { QueryClient, QueryClientProvider, isServer } from "@tanstack/react-query";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Server-prefetched data is fresh on arrival: no immediate refetch after hydration.
      queries: { staleTime: 15_000, refetchOnWindowFocus: true, retry: 1 },
    },
  });
}

let browserClient: QueryClient | undefined;
function getQueryClient() {
  if (isServer) return makeQueryClient();
  return (browserClient ??= makeQueryClient());
}

export function Providers({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  // Marks the document once React has hydrated (browser tests wait for it before interacting).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
