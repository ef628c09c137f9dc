// Reading a market page's server HTML without a browser (the page cache and response cache specs).

/** The related rows of a market page, in order: each market's question and the volume it shows. */
export function relatedRows(html: string): { question: string; volume: string }[] {
  const section = /<section aria-labelledby="related-heading"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  return [...section.matchAll(/data-testid="related-market"[\s\S]*?<a [^>]*>([^<]*)<\/a>[\s\S]*?<p [^>]*>([^<]*)(?:<!-- -->)? Vol\./g)].map((m) => ({
    question: m[1].replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&"),
    volume: m[2],
  }));
}
