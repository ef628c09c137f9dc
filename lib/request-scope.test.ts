import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { newRenderRecord } from "@/lib/cache/render-record";
import { inScope, runInScope } from "./request-scope";

describe("request scope – one storage for what a request keeps", () => {
  it("keeps the outer keys in an inner scope, and the outer scope as it was afterwards", async () => {
    const res = {} as ServerResponse;
    const record = newRenderRecord();
    await runInScope("renderRecord", record, async () => {
      await runInScope("documentResponse", res, async () => {
        await Promise.resolve();
        expect(inScope("renderRecord")).toBe(record);
        expect(inScope("documentResponse")).toBe(res);
      });
      expect(inScope("documentResponse")).toBeUndefined();
      expect(inScope("renderRecord")).toBe(record);
    });
    expect(inScope("renderRecord")).toBeUndefined();
  });

  it("keeps concurrent requests apart", async () => {
    const a = { ageS: 1, read: [] };
    const b = { ageS: 2, read: [] };
    const seen = await Promise.all(
      [a, b].map((status) =>
        runInScope("cacheStatus", status, async () => {
          await new Promise((r) => setTimeout(r, 5));
          return inScope("cacheStatus");
        }),
      ),
    );
    expect(seen).toEqual([a, b]);
    expect(seen[0]).toBe(a);
  });
});
