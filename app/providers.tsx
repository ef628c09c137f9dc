"use client";
// One QueryClient per browser session (per request on the server), for the client trees that use
// react-query (the market page's live view); the list is server-rendered and needs none.
import { QueryClientProvider } from "@tanstack/react-query";
import { getQueryClient } from "@/lib/query/client";

export function Providers({ children }: { children: React.ReactNode }) {
  return <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>;
}
