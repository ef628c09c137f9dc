// Reading the pages' server HTML without a browser (the page cache and response cache specs).

const text = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

/** The related rows of a market page, in order: each market's question and the volume it shows. */
export function relatedRows(html: string): { question: string; volume: string }[] {
  const section = /<section aria-labelledby="related-heading"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  return [...section.matchAll(/data-testid="related-market"[\s\S]*?<a [^>]*>([^<]*)<\/a>[\s\S]*?<p [^>]*>([^<]*)(?:<!-- -->)? Vol\./g)].map((m) => ({
    question: text(m[1]),
    volume: m[2],
  }));
}

/** The slugs of a list page's cards, in order. */
export function listSlugs(html: string): string[] {
  return [...html.matchAll(/data-testid="market-card"[\s\S]*?<h3[^>]*><a [^>]*href="\/markets\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]));
}

/** A list page's sub-category choices with their counts. */
export function subCategoryCounts(html: string): Record<string, number> {
  return Object.fromEntries([...html.matchAll(/<option value="([^"]+)">[^<]*<!-- --> \((\d+)\)<\/option>/g)].map((m) => [text(m[1]), Number(m[2])]));
}
