// npm run client:generate            write packages/client/openapi.json and regenerate packages/client/src/gen
// npm run client:check               regenerate into a temp dir and diff: exit 1 when the committed code is not what
//                                    the current document generates (part of npm test)
//        … -- --input doc.json       use this document instead of the one built in-process (lib/api/openapi.ts)
// The document is built in-process, so generation needs no server. @hey-api/openapi-ts runs twice: on the
// document as served (the primary, snake_case shape) and on a copy whose 200s keep only the camelCase media type,
// so that every operation has its response types in both shapes. Its fetch client is bundled into the output:
// the package needs nothing but fetch at run time.
import fs from "node:fs";
import { createRequire, register } from "node:module";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";

const { values } = parseArgs({ options: { check: { type: "boolean", default: false }, input: { type: "string" } } });

const PACKAGE_DIR = path.join(process.cwd(), "packages", "client");
/** What generation writes, relative to the package: the document and the generated sources. */
const DOCUMENT_FILE = "openapi.json";
const GEN_DIR = path.join("src", "gen");
const CAMEL_MEDIA_TYPE = "application/vnd.markets.camel+json";

// hey-api prints its code through the TypeScript compiler API, which TypeScript 7 (the repo's compiler, a native
// binary) no longer has: its `import "typescript"` is pointed at the TypeScript 6 the client package pins.
const typescriptForGenerator = pathToFileURL(createRequire(path.join(PACKAGE_DIR, "package.json")).resolve("typescript")).href;
register(
  `data:text/javascript,${encodeURIComponent(
    `export async function resolve(s, c, next) { return next(s === "typescript" ? ${JSON.stringify(typescriptForGenerator)} : s, c); }`,
  )}`,
);

type Document = { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>> };

/** The same operations with only the camelCase variant in their 200s (errors are one shape in both). */
export function camelDocument(doc: Document): Document {
  const copy: Document = structuredClone(doc);
  for (const item of Object.values(copy.paths)) {
    for (const operation of Object.values(item)) {
      const ok = operation.responses?.["200"];
      if (ok?.content?.[CAMEL_MEDIA_TYPE]) ok.content = { [CAMEL_MEDIA_TYPE]: ok.content[CAMEL_MEDIA_TYPE] };
    }
  }
  return copy;
}

async function generate(doc: Document, packageDir: string) {
  const { createClient } = await import("@hey-api/openapi-ts");
  fs.writeFileSync(path.join(packageDir, DOCUMENT_FILE), `${JSON.stringify(doc, null, 2)}\n`);
  for (const [variant, input] of [
    ["primary", doc],
    ["camel", camelDocument(doc)],
  ] as const) {
    await createClient({
      input: input as unknown as Record<string, unknown>,
      output: { path: path.join(packageDir, GEN_DIR, variant), importFileExtension: ".js", clean: true },
      plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
      logs: { level: "silent" },
    });
  }
}

function filesUnder(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))]))
    .sort();
}

/** The files of `a` (committed) and `b` (regenerated) that differ, each with its changed lines (at most 12 a side). */
export function differences(a: string, b: string): string[] {
  const list = (root: string) => [DOCUMENT_FILE, ...filesUnder(path.join(root, GEN_DIR)).map((f) => path.join(GEN_DIR, f))];
  const names = [...new Set([...list(a), ...list(b)])].sort();
  const out: string[] = [];
  for (const name of names) {
    const [x, y] = [a, b].map((root) => (fs.existsSync(path.join(root, name)) ? fs.readFileSync(path.join(root, name), "utf8") : null));
    if (x === y) continue;
    if (x === null || y === null) {
      out.push(`${name}: only in ${x === null ? "the regenerated code" : "the committed code"}`);
      continue;
    }
    // The lines between the common beginning and the common end: what a unified diff would show as one hunk.
    const [xl, yl] = [x.split("\n"), y.split("\n")];
    let head = 0;
    while (head < xl.length && head < yl.length && xl[head] === yl[head]) head++;
    let tail = 0;
    while (tail < xl.length - head && tail < yl.length - head && xl[xl.length - 1 - tail] === yl[yl.length - 1 - tail]) tail++;
    const show = (lines: string[], sign: string) => {
      const changed = lines.slice(head, lines.length - tail);
      return [...changed.slice(0, 12).map((l) => `${sign} ${l}`), ...(changed.length > 12 ? [`${sign} … ${changed.length - 12} more`] : [])];
    };
    out.push([`--- ${name}:${head + 1} (committed) / +++ regenerated`, ...show(xl, "-"), ...show(yl, "+")].join("\n"));
  }
  return out;
}

const doc: Document = values.input
  ? JSON.parse(fs.readFileSync(values.input, "utf8"))
  : ((await import("../lib/api/openapi")).openApiDocument() as unknown as Document);

if (values.check) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "markets-client-check-"));
  try {
    await generate(doc, tmp);
    const diff = differences(PACKAGE_DIR, tmp);
    if (diff.length) {
      console.error(`client:check: packages/client differs from what the OpenAPI document generates (${diff.length} file(s)):\n${diff.join("\n")}`);
      console.error("Regenerate with: npm run client:generate");
      process.exit(1);
    }
    console.log(`client:check: packages/client/${GEN_DIR} is what the current OpenAPI document generates`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
} else {
  await generate(doc, PACKAGE_DIR);
  console.log(`client:generate: wrote packages/client/${DOCUMENT_FILE} and packages/client/${GEN_DIR}/{primary,camel}`);
}
