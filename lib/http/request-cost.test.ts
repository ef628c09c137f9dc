import { describe, expect, it } from "vitest";
import { requestCost } from "./request-cost";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const ids = (n: number) => Array.from({ length: n }, (_, i) => id(i)).join(",");

describe("requestCost – one token per request, one per distinct id for a batch", () => {
  it.each([
    ["GET", "/v1/markets?limit=20", 1],
    ["GET", "/v1/markets", 1],
    ["HEAD", "/v1/markets/x/orderbook?outcomeId=y", 1],
    ["OPTIONS", `/v1/orderbooks?outcomeIds=${ids(10)}`, 0],
    ["GET", `/v1/orderbooks?outcomeIds=${id(1)}`, 1],
    ["GET", `/v1/orderbooks?outcomeIds=${ids(7)}`, 7],
    ["GET", `/v1/prices-history?outcomeIds=${ids(50)}&fidelity=60`, 50],
    ["GET", `/v1/orderbooks?outcomeIds=${ids(51)}`, 50],
    ["GET", `/v1/orderbooks?outcomeIds=${ids(500)}`, 50],
    ["GET", `/v1/orderbooks?outcomeIds=${id(1)},${id(1)},${id(1).toUpperCase()}`, 1],
    ["GET", `/v1/orderbooks?outcomeIds=${id(1)}&outcomeIds=${id(2)},${id(3)}`, 3],
    ["GET", "/v1/orderbooks?outcomeIds=a,b,,c", 3],
    ["GET", "/v1/orderbooks?outcomeIds=", 1],
    ["GET", "/v1/orderbooks?outcomeIds=%E0%A4%A,%ZZ", 2],
    ["GET", undefined, 1],
  ] as [string, string | undefined, number][])("%s %s costs %i", (method, url, cost) => expect(requestCost(method, url)).toBe(cost));
});
