import { describe, expect, test } from "vitest";
import { embedHtml, shareVersion } from "./share";

const market = {
  updated_at: "2026-01-01T00:00:00.000Z",
  status: "ACTIVE",
  total_volume: 10,
  outcomes: [{ id: "a", probability: 60, updated_at: "2026-01-01T00:00:00.000Z" }],
};

describe("share", () => {
  test("the image version changes with probabilities, volume and status, and only with them", () => {
    const v = shareVersion(market);
    expect(shareVersion({ ...market })).toBe(v);
    expect(shareVersion({ ...market, total_volume: 11 })).not.toBe(v);
    expect(shareVersion({ ...market, status: "RESOLVED" })).not.toBe(v);
    expect(shareVersion({ ...market, outcomes: [{ ...market.outcomes[0], probability: 61 }] })).not.toBe(v);
  });
  test("the embed code escapes the title", () => {
    expect(embedHtml("http://x.test", "s", `"><script>`)).toBe(
      `<iframe src="http://x.test/embed/markets/s" width="400" height="300" style="border:0;max-width:100%" title="&quot;&gt;&lt;script&gt;" loading="lazy"></iframe>`,
    );
  });
});
