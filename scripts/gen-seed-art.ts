// Writes the demo images the seed refers to: 4 market images per category in public/market-images/
// and the user avatars in public/avatars/. Run once (npx tsx scripts/gen-seed-art.ts); output is committed.
import fs from "node:fs";
import path from "node:path";
import { CATEGORIES, type Category } from "../lib/markets/schemas";
import { AVATAR_COUNT } from "../lib/seed/generate";

const PALETTES: Record<Category, [string, string][]> = {
  CRYPTO: [
    ["#f7931a", "#7c2d12"],
    ["#627eea", "#1e1b4b"],
    ["#14f195", "#9945ff"],
    ["#fbbf24", "#b45309"],
  ],
  SPORTS: [
    ["#16a34a", "#064e3b"],
    ["#f97316", "#7c2d12"],
    ["#0ea5e9", "#1e3a8a"],
    ["#84cc16", "#365314"],
  ],
  POLITICS: [
    ["#1d4ed8", "#991b1b"],
    ["#334155", "#0f172a"],
    ["#6366f1", "#312e81"],
    ["#dc2626", "#1e3a8a"],
  ],
  ENTERTAINMENT: [
    ["#ec4899", "#6b21a8"],
    ["#f43f5e", "#881337"],
    ["#a855f7", "#1e1b4b"],
    ["#facc15", "#be123c"],
  ],
  SCIENCE: [
    ["#06b6d4", "#164e63"],
    ["#8b5cf6", "#0f172a"],
    ["#22d3ee", "#1e40af"],
    ["#10b981", "#134e4a"],
  ],
  FINANCE: [
    ["#10b981", "#064e3b"],
    ["#0f766e", "#0f172a"],
    ["#eab308", "#14532d"],
    ["#3b82f6", "#0c4a6e"],
  ],
  OTHER: [
    ["#64748b", "#1e293b"],
    ["#f59e0b", "#78350f"],
    ["#14b8a6", "#312e81"],
    ["#e879f9", "#4c1d95"],
  ],
};

// One glyph per category, drawn in a 100×100 box centred on the image.
const GLYPHS: Record<Category, string> = {
  CRYPTO: `<circle cx="50" cy="50" r="38" fill="none" stroke="#fff" stroke-width="6"/><path d="M40 28v44M52 28v44M36 34h20a8 8 0 0 1 0 16H36h22a9 9 0 0 1 0 18H36" fill="none" stroke="#fff" stroke-width="6" stroke-linejoin="round"/>`,
  SPORTS: `<circle cx="50" cy="50" r="38" fill="none" stroke="#fff" stroke-width="6"/><path d="M50 12v76M12 50h76M23 23c16 16 16 38 0 54M77 23c-16 16-16 38 0 54" fill="none" stroke="#fff" stroke-width="5"/>`,
  POLITICS: `<path d="M14 38 50 16l36 22z" fill="#fff"/><path d="M22 44v32M38 44v32M62 44v32M78 44v32" stroke="#fff" stroke-width="8"/><rect x="12" y="80" width="76" height="8" fill="#fff"/>`,
  ENTERTAINMENT: `<path d="M50 10l11 26 28 2-21 18 7 28-25-15-25 15 7-28-21-18 28-2z" fill="#fff"/>`,
  SCIENCE: `<g fill="none" stroke="#fff" stroke-width="5"><ellipse cx="50" cy="50" rx="40" ry="15"/><ellipse cx="50" cy="50" rx="40" ry="15" transform="rotate(60 50 50)"/><ellipse cx="50" cy="50" rx="40" ry="15" transform="rotate(120 50 50)"/></g><circle cx="50" cy="50" r="7" fill="#fff"/>`,
  FINANCE: `<path d="M16 84h70" stroke="#fff" stroke-width="5"/><g fill="#fff" opacity=".85"><rect x="20" y="60" width="12" height="20"/><rect x="38" y="48" width="12" height="32"/><rect x="56" y="54" width="12" height="26"/><rect x="74" y="34" width="12" height="46"/></g><path d="M18 50 40 32l18 10 28-26" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>`,
  OTHER: `<path d="M50 8l9 33 33 9-33 9-9 33-9-33-33-9 33-9z" fill="#fff"/>`,
};

function marketImage(category: Category, n: number): string {
  const [from, to] = PALETTES[category][n];
  const angle = [0, 35, 70, 120][n];
  const circles = Array.from({ length: 5 }, (_, k) => {
    const x = (37 * (k + 1) * (n + 3)) % 400;
    const y = (53 * (k + 2) * (n + 1)) % 300;
    return `<circle cx="${x}" cy="${y}" r="${30 + ((k * 17 + n * 11) % 60)}" fill="#fff" opacity="${(0.04 + k * 0.015).toFixed(3)}"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300" role="img" aria-label="${category.toLowerCase()} market">
<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="400" height="300" fill="url(#g)"/>${circles}
<g transform="translate(${130 + (n % 2) * 20 - 10} ${80 + (n >> 1) * 10 - 5}) scale(1.4)" opacity=".95">${GLYPHS[category]}</g>
</svg>
`;
}

function avatar(n: number): string {
  const hue = (n * 137) % 360;
  const bg = `hsl(${hue} 70% 55%)`;
  const fg = `hsl(${(hue + 180) % 360} 80% 92%)`;
  // A symmetric 5×5 identicon-style pattern from the avatar number.
  let cells = "";
  for (let y = 0; y < 5; y++)
    for (let x = 0; x < 3; x++) {
      if (((n * 2654435761) >>> (y * 3 + x)) & 1) {
        cells += `<rect x="${10 + x * 16}" y="${10 + y * 16}" width="16" height="16"/>`;
        if (x < 2) cells += `<rect x="${10 + (4 - x) * 16}" y="${10 + y * 16}" width="16" height="16"/>`;
      }
    }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100" role="img" aria-label="avatar">
<rect width="100" height="100" rx="50" fill="${bg}"/><g fill="${fg}">${cells}</g>
</svg>
`;
}

const root = path.join(process.cwd(), "public");
fs.mkdirSync(path.join(root, "market-images"), { recursive: true });
fs.mkdirSync(path.join(root, "avatars"), { recursive: true });
for (const c of CATEGORIES)
  for (let n = 0; n < 4; n++) fs.writeFileSync(path.join(root, "market-images", `${c.toLowerCase()}-${n + 1}.svg`), marketImage(c, n));
for (let n = 1; n <= AVATAR_COUNT; n++) fs.writeFileSync(path.join(root, "avatars", `avatar-${n}.svg`), avatar(n));
console.log(`wrote ${CATEGORIES.length * 4} market images and ${AVATAR_COUNT} avatars under public/`);
