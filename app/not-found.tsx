// Every unknown address outside /v1 (which answers JSON 404s itself). Rendered per request, not
// prerendered: Next can only put the response's CSP nonce (lib/pages/document-security.ts) on the scripts of a dynamic
// render, and a prerendered 404 would reach the browser with every script blocked.
import { connection } from "next/server";
import { NotFoundBody } from "@/components/site/not-found-body";
import { SiteHeader } from "@/components/site/site-header";

export const metadata = { title: "Page not found" };

export default async function NotFound() {
  await connection();
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="outline-none mx-auto flex w-full max-w-lg flex-1 flex-col items-center gap-3 px-4 py-20 text-center">
        <NotFoundBody />
      </main>
    </div>
  );
}
