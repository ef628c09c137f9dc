// /docs – the reference page of the public /v1 API (the OpenAPI document, rendered; a link to the push channels' AsyncAPI document)
import type { Metadata } from "next";
import { connection } from "next/server";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = {
  title: "API reference – Markets",
  description: "The public read-only /v1 API: markets, order books and price history.",
};

// Rendered per request: the CSP nonce of lib/pages/document-security.ts must reach its scripts (a prerendered page has none).
export default async function DocsPage() {
  await connection();
  return (
    // Not a <main>: Scalar renders its own main landmark inside, and a document has one.
    <div id="main" tabIndex={-1} className="flex-1 outline-none">
      {/* In a region of its own: content outside every landmark is lost to landmark navigation. */}
      <section aria-labelledby="docs-heading" className="border-b border-zinc-200 dark:border-zinc-800">
        <h1 id="docs-heading" className="sr-only">
          API reference
        </h1>
        {/* The push channels are no REST operations: their own document, beside the rendered one. */}
        <p className="mx-auto max-w-7xl px-4 py-2 text-sm text-zinc-600 dark:text-zinc-400">
          Push channels (server-sent events on /v1/stream, Socket.IO on /socket.io):{" "}
          <a href="/v1/asyncapi.json" className="rounded font-medium text-zinc-900 underline underline-offset-4 dark:text-zinc-100">
            AsyncAPI document
          </a>
          .
        </p>
      </section>
      <div data-api-reference>
        <ApiReference />
      </div>
    </div>
  );
}
