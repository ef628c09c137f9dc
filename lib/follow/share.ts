// The share and embed URLs of a market (Open Graph image, embed card, oEmbed) and the version that makes
// a changed market's image a new URL. Pure; shared by the pages, the routes and tests.
import type { Outcome } from "@/lib/markets/schemas";

export const SITE_NAME = "Markets";
export const SHARE_IMAGE = { width: 1200, height: 630 } as const;
export const EMBED_SIZE = { width: 400, height: 300 } as const;

export const marketPath = (slug: string) => `/markets/${slug}`;
export const embedPath = (slug: string) => `/embed/markets/${slug}`;

/**
 * A short version of what the share image shows: the market's updated_at and its outcomes' probabilities
 * and volume (a trade moves them). FNV-1a over the text, base 36: a changed market gets a new image URL.
 */
export function shareVersion(m: {
  updated_at: string;
  status: string;
  total_volume: number;
  outcomes: Pick<Outcome, "id" | "probability" | "updated_at">[];
}): string {
  const text = [m.updated_at, m.status, m.total_volume, ...m.outcomes.map((o) => `${o.id}:${o.probability}:${o.updated_at}`)].join("|");
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

export const shareImagePath = (slug: string, version: string) => `/markets/${slug}/share.png?v=${version}`;

/** The HTML a site pastes to embed the market's card (the copy button's text and oEmbed's `html`). */
export function embedHtml(origin: string, slug: string, title: string, size: { width: number; height: number } = EMBED_SIZE): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<iframe src="${esc(origin + embedPath(slug))}" width="${size.width}" height="${size.height}" style="border:0;max-width:100%" title="${esc(title)}" loading="lazy"></iframe>`;
}
