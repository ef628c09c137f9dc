// The drift check of the generated client (npm run client:check) is a real check: a document that differs from
// the one the committed code was generated from (here a list item with one more field) fails it, naming the file.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { openApiDocument } from "@/lib/api/openapi";

const run = promisify(execFile);

test("client:check – fails on a deliberately changed schema and names what the regenerated code changes", { timeout: 60_000 }, async () => {
  const doc = structuredClone(openApiDocument()) as unknown as {
    components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
  };
  const item = doc.components.schemas.MarketListItem;
  item.properties.drift_probe = { type: "integer", description: "A field the server does not have." };
  item.required.push("drift_probe");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "client-drift-"));
  const input = path.join(dir, "openapi.json");
  fs.writeFileSync(input, JSON.stringify(doc));
  try {
    const failed = await run(process.execPath, ["--import", "tsx", "scripts/client-generate.ts", "--check", "--input", input]).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed, "the check must fail").not.toBeNull();
    expect(failed!.code).toBe(1);
    expect(failed!.stderr).toContain("packages/client differs from what the OpenAPI document generates");
    expect(failed!.stderr).toMatch(/src\/gen\/primary\/types\.gen\.ts:\d+/);
    expect(failed!.stderr).toContain("drift_probe");
    expect(failed!.stderr).toContain("npm run client:generate");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
