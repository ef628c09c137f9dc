// Every unknown address outside /v1 (which answers JSON 404s itself). Rendered per request, not
// prerendered: Next can only put the response's CSP nonce (proxy.ts) on the scripts of a dynamic
// render, and a prerendered 404 would reach the browser with every script blocked.
import Link from "next/link";
import { connection } from "next/server";
import { buttonClass } from "@/components/ui/button";
import { SiteHeader } from "@/components/site/site-header";

export const metadata = { title: "Page not found" };

export default async function NotFound() {
  await connection();
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="outline-none mx-auto flex w-full max-w-lg flex-1 flex-col items-center gap-3 px-4 py-20 text-center">
        <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">404</p>
        <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
        <p className="text-zinc-600 dark:text-zinc-400">Nothing lives at this address. The link may be mistyped, or the page has moved.</p>
        <Link href="/" className={buttonClass("primary")}>
          Browse all markets
        </Link>
      </main>
    </div>
  );
}
