// /docs – the reference page of the public /v1 API (the OpenAPI document, rendered)
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
      <section aria-labelledby="docs-heading">
        <h1 id="docs-heading" className="sr-only">
          API reference
        </h1>
      </section>
      <div data-api-reference>
        <ApiReference />
      </div>
    </div>
  );
}
