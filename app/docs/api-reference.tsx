"use client";
// The interactive reference of /v1, rendered by Scalar from /v1/openapi.json. Client-only and imported by
// /docs alone, so its weight never reaches the other pages. Everything it loads comes from this origin.
import "@/lib/ui/zod-without-eval";
import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

const configuration = {
  url: "/v1/openapi.json",
  // No third-party requests: system fonts instead of Scalar's font CDN, no telemetry, no request proxy.
  withDefaultFonts: false,
  telemetry: false,
  // The "Ask AI" agent switches itself on for local URLs and talks to Scalar's servers.
  agent: { disabled: true },
  hideClientButton: false,
  showDeveloperTools: "never" as const,
  documentDownloadType: "json" as const,
  // Seven operations in three tags: show them all rather than one tag at a time.
  defaultOpenAllTags: true,
  metaData: { title: "API reference – Markets" },
};

export function ApiReference() {
  return <ApiReferenceReact configuration={configuration} />;
}
