"use client";
// One QueryClient per browser session (per request on the server), shared by every client component.
import { useEffect } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { getQueryClient } from "@/lib/query/client";

export function Providers({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  // Marks the document once React has hydrated (browser tests wait for it before interacting).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
