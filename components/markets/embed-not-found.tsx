// A 404 inside an embed frame (/embed/markets/{slug} for a market that does not exist, or no longer does):
// a card the size of the embed's, saying so, with the way to the site in a new tab, instead of the root
// 404 with the whole site's header squeezed into someone else's page. The embed page draws it itself,
// with its 404 status (lib/pages/document-status.ts).
import { SITE_NAME } from "@/lib/follow/share";

export function EmbedNotFound() {
  return (
    <main
      className="flex min-h-dvh flex-col items-start justify-center gap-2 bg-white p-4 text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100"
      data-testid="embed-not-found"
    >
      <h1 className="text-base font-semibold">Market not found</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">This market does not exist, or no longer does.</p>
      <a href="/" target="_blank" rel="noopener" className="rounded text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
        Browse markets on {SITE_NAME} ↗
      </a>
    </main>
  );
}
