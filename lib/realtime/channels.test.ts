import { describe, expect, it } from "vitest";
import { channelName, parseChannel } from "./channels";
import { channelRequest } from "./schemas";

describe("parseChannel", () => {
  it.each([
    ["market:will-btc-hit-100k:price", { slug: "will-btc-hit-100k", kind: "price" }],
    ["market:a:orderbook", { slug: "a", kind: "orderbook" }],
    [`market:${"x".repeat(200)}:price`, { slug: "x".repeat(200), kind: "price" }],
    ["market:0-9:orderbook", { slug: "0-9", kind: "orderbook" }],
  ])("channel – accepts %s", (name, parsed) => {
    expect(parseChannel(name)).toEqual(parsed);
  });

  it.each([
    ["", "empty"],
    ["market::price", "empty slug"],
    ["market:Upper:price", "upper case slug"],
    ["market:a_b:price", "underscore"],
    ["market:a:volume", "unknown kind"],
    ["market:a:price:extra", "trailing part"],
    ["markets:a:price", "wrong prefix"],
    [" market:a:price", "leading space"],
    ["market:a:price\n", "trailing newline"],
    [`market:${"x".repeat(201)}:price`, "slug over 200 chars"],
  ])("channel – rejects %j (%s)", (name) => {
    expect(parseChannel(name)).toBeNull();
  });

  it.each([[null], [undefined], [42], [{ channel: "market:a:price" }], [["market:a:price"]]])("channel – rejects the non-string %j", (value) => {
    expect(parseChannel(value)).toBeNull();
  });

  it("channelName – round-trips through parseChannel", () => {
    expect(parseChannel(channelName("some-market", "orderbook"))).toEqual({ slug: "some-market", kind: "orderbook" });
  });
});

describe("channelRequest", () => {
  it.each([[null], ["market:a:price"], [{}], [{ channel: 1 }], [{ channel: "x".repeat(221) }]])("join payload – rejects %j", (payload) => {
    expect(channelRequest.safeParse(payload).success).toBe(false);
  });
  it("join payload – accepts {channel} and ignores extra keys", () => {
    expect(channelRequest.parse({ channel: "market:a:price", extra: 1 })).toEqual({ channel: "market:a:price" });
  });
});
