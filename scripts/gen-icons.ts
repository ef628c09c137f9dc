// Rasterises app/icon.svg (the site's mark, as in the header) into the icons browsers ask for by name:
// app/favicon.ico (16 and 32 px PNGs in an ICO) and app/apple-icon.png (180 px, opaque). Run once
// after changing the SVG: `npx tsx scripts/gen-icons.ts`. sharp comes with Next (image optimisation).
import fs from "node:fs";
import sharp from "sharp";

const svg = fs.readFileSync("app/icon.svg");
const png = (size: number, flatten = false) => {
  const img = sharp(svg, { density: (72 * size) / 32 }).resize(size, size);
  return (flatten ? img.flatten({ background: "#4f46e5" }) : img).png().toBuffer();
};

/** An ICO holding PNG images (supported by every browser since IE Vista-era). */
function ico(images: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size % 256, e);
    header.writeUInt8(size % 256, e + 1);
    header.writeUInt16LE(1, e + 4); // colour planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

const [p16, p32, p180] = await Promise.all([png(16), png(32), png(180, true)]);
fs.writeFileSync(
  "app/favicon.ico",
  ico([
    { size: 16, data: p16 },
    { size: 32, data: p32 },
  ]),
);
fs.writeFileSync("app/apple-icon.png", p180);
console.log(`app/favicon.ico ${fs.statSync("app/favicon.ico").size} B, app/apple-icon.png ${p180.length} B`);
