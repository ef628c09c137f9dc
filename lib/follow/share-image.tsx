// The share images (Open Graph / Twitter cards, 1200×630 PNG) drawn with next/og (Satori + resvg) in Geist,
// the font Next ships for it, so nothing is fetched. The PNG of one version is drawn once per process.
import "server-only";
import { ImageResponse } from "next/og";
import type { MarketDetail, PricePoint } from "@/lib/markets/schemas";
import { leadingOutcome } from "@/lib/markets/moves";
import { areaPaths } from "@/lib/ui/price-area";
import { SHARE_IMAGE, SITE_NAME } from "@/lib/follow/share";
import { titleCase } from "@/lib/ui/title-case";

const INK = "#18181b";
const MUTED = "#52525b";
const ACCENT = "#4f46e5";

function Brand() {
  return (
    <div style={{ display: "flex", alignItems: "center", gap: 14, fontSize: 34, color: INK }}>
      <svg
        aria-hidden="true"
        width="40"
        height="40"
        viewBox="0 0 24 24"
        fill="none"
        stroke={ACCENT}
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M3 17l5-6 4 3 6-8 3 4" />
      </svg>
      {SITE_NAME}
    </div>
  );
}

/** Up to three outcomes, highest first, and the leading one's 7-day line. */
export function marketShareImage(market: MarketDetail, points: PricePoint[]): ImageResponse {
  const top = [...market.outcomes].sort((a, b) => b.probability - a.probability || a.index - b.index).slice(0, 3);
  const lead = leadingOutcome(market.outcomes);
  const paths = points.length > 1 ? areaPaths(points) : null;
  const question = market.question.length > 140 ? `${market.question.slice(0, 137)}…` : market.question;
  return new ImageResponse(
    <div style={{ width: "100%", height: "100%", display: "flex", flexDirection: "column", background: "#ffffff", padding: "56px 64px", color: INK }}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center" }}>
        <Brand />
        <div style={{ display: "flex", fontSize: 26, color: MUTED }}>
          {`${titleCase(market.category)}${market.status !== "ACTIVE" ? ` · ${titleCase(market.status)}` : ""}`}
        </div>
      </div>
      <div style={{ display: "flex", marginTop: 36, fontSize: question.length > 80 ? 48 : 58, lineHeight: 1.15, maxHeight: 200, overflow: "hidden" }}>
        {question}
      </div>
      <div style={{ display: "flex", flex: 1, marginTop: 28, gap: 48, alignItems: "flex-end" }}>
        <div style={{ display: "flex", flexDirection: "column", gap: 18, width: 560 }}>
          {top.map((o) => (
            <div key={o.id} style={{ display: "flex", flexDirection: "column", gap: 8 }}>
              <div style={{ display: "flex", justifyContent: "space-between", fontSize: 32 }}>
                <span style={{ maxWidth: 420, overflow: "hidden", whiteSpace: "nowrap", textOverflow: "ellipsis" }}>{o.name}</span>
                <span style={{ color: o.id === lead?.id ? ACCENT : MUTED }}>{`${Math.round(o.probability)}%`}</span>
              </div>
              <div style={{ display: "flex", height: 14, width: "100%", background: "#e4e4e7", borderRadius: 7 }}>
                <div
                  style={{
                    display: "flex",
                    height: 14,
                    width: `${Math.max(1, o.probability)}%`,
                    background: o.id === lead?.id ? ACCENT : "#a1a1aa",
                    borderRadius: 7,
                  }}
                />
              </div>
            </div>
          ))}
        </div>
        <div style={{ display: "flex", flexDirection: "column", flex: 1, height: 200 }}>
          {paths && (
            <svg aria-hidden="true" width="100%" height="100%" viewBox="0 0 1000 300" preserveAspectRatio="none">
              <path d={paths.area} fill="rgba(79,70,229,0.12)" />
              <path d={paths.line} fill="none" stroke={ACCENT} strokeWidth="8" strokeLinejoin="round" />
            </svg>
          )}
          <div style={{ display: "flex", fontSize: 22, color: MUTED, marginTop: 8 }}>{paths && lead ? `${lead.name}, last 7 days` : ""}</div>
        </div>
      </div>
    </div>,
    { ...SHARE_IMAGE },
  );
}

/** The list page's card: the site and what it offers. */
export function siteShareImage(counts: { active: number }): ImageResponse {
  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        background: "#ffffff",
        padding: "64px",
        color: INK,
      }}
    >
      <Brand />
      <div style={{ display: "flex", flexDirection: "column", gap: 20 }}>
        <div style={{ fontSize: 72, lineHeight: 1.1 }}>Prediction markets</div>
        <div style={{ fontSize: 36, color: MUTED }}>Live probabilities, order books and price history across every category.</div>
      </div>
      <div style={{ display: "flex", fontSize: 30, color: ACCENT }}>{`${counts.active.toLocaleString("en-US")} active markets`}</div>
    </div>,
    { ...SHARE_IMAGE },
  );
}

/** PNGs drawn in this process, by slug and version (a few kB each, 200 at most, oldest out first). */
const drawn = new Map<string, ArrayBuffer>();
export async function drawOnce(key: string, draw: () => Promise<ImageResponse>): Promise<ArrayBuffer> {
  const hit = drawn.get(key);
  if (hit) return hit;
  const png = await (await draw()).arrayBuffer();
  drawn.set(key, png);
  if (drawn.size > 200) drawn.delete(drawn.keys().next().value as string);
  return png;
}

/** A PNG answer: immutable when the URL names the current version, else short-lived; ETag and 304 either way. */
export function pngResponse(req: Request, png: ArrayBuffer, etag: string, immutable: boolean): Response {
  const headers = {
    "Content-Type": "image/png",
    "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=60, stale-while-revalidate=300",
    ETag: `"${etag}"`,
  };
  if (req.headers.get("if-none-match") === `"${etag}"`) return new Response(null, { status: 304, headers });
  return new Response(png, { status: 200, headers });
}
