import { describe, expect, it } from "vitest";
import { parseNotification } from "./server";

describe("parseNotification", () => {
  it("NOTIFY payload – reads the triggers' {k, s, o}", () => {
    expect(parseNotification('{"k":"orderbook","s":"a-market","o":"0b7c6c1e-3f0a-4d55-9b1e-2a7f5c9d8e01"}')).toEqual({
      k: "orderbook",
      s: "a-market",
      o: "0b7c6c1e-3f0a-4d55-9b1e-2a7f5c9d8e01",
    });
    expect(parseNotification('{"k":"price","s":"a-market","o":null}')).toEqual({ k: "price", s: "a-market", o: null });
  });

  it.each([
    ['{"k":"ping","n":"123-abc"}', "the listener's own ping"],
    ['{"k":"trades","s":"a","o":null}', "an unknown kind"],
    ['{"k":"price","s":"a"}', "a missing outcome"],
    ["not json", "not JSON"],
    ["null", "JSON null"],
  ])("NOTIFY payload – ignores %j (%s)", (payload) => {
    expect(parseNotification(payload)).toBeNull();
  });
});
