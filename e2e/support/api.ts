// What several API specs share: the endpoints of one inserted market, and the camelCase media type (the app's own constant).
import type { FullMarket } from "./markets";

export { CAMEL_MEDIA_TYPE as CAMEL } from "@/lib/markets/schemas";

export type EndpointKind = "list" | "market" | "book" | "history" | "trades" | "books" | "histories" | "candles" | "candle-sets" | "past-book" | "book-changes";

export interface Endpoint {
  /** The OpenAPI path template. */
  template: string;
  kind: EndpointKind;
  url: string;
}

/** The endpoints of docs/api.md "Endpoints", addressed at one market (the list filtered to it alone; the batches at its outcomes). */
export function endpointsOf(m: FullMarket): Endpoint[] {
  const outcome = m.outcomes[0];
  return [
    { template: "/v1/markets", kind: "list", url: `/v1/markets?q=${m.token}&status=${m.status}` },
    { template: "/v1/markets/{id}", kind: "market", url: `/v1/markets/${m.id}` },
    { template: "/v1/markets/slug/{slug}", kind: "market", url: `/v1/markets/slug/${m.slug}` },
    { template: "/v1/markets/{id}/orderbook", kind: "book", url: `/v1/markets/${m.id}/orderbook?outcomeId=${outcome}` },
    { template: "/v1/markets/slug/{slug}/orderbook", kind: "book", url: `/v1/markets/slug/${m.slug}/orderbook?outcomeId=${outcome}` },
    // A moment after every write (the live book) and the whole record: answers that still change, cached like the book.
    { template: "/v1/markets/{id}/orderbook/at", kind: "past-book", url: `/v1/markets/${m.id}/orderbook/at?outcomeId=${outcome}&ts=253402300799` },
    {
      template: "/v1/markets/slug/{slug}/orderbook/at",
      kind: "past-book",
      url: `/v1/markets/slug/${m.slug}/orderbook/at?outcomeId=${outcome}&ts=253402300799`,
    },
    { template: "/v1/markets/{id}/orderbook/changes", kind: "book-changes", url: `/v1/markets/${m.id}/orderbook/changes?outcomeId=${outcome}&fromVersion=1` },
    {
      template: "/v1/markets/slug/{slug}/orderbook/changes",
      kind: "book-changes",
      url: `/v1/markets/slug/${m.slug}/orderbook/changes?outcomeId=${outcome}&startTs=0&limit=1000`,
    },
    { template: "/v1/markets/{id}/prices-history", kind: "history", url: `/v1/markets/${m.id}/prices-history?outcomeId=${outcome}&fidelity=5` },
    {
      template: "/v1/markets/slug/{slug}/prices-history",
      kind: "history",
      url: `/v1/markets/slug/${m.slug}/prices-history?outcomeId=${outcome}&fidelity=5`,
    },
    { template: "/v1/markets/{id}/trades", kind: "trades", url: `/v1/markets/${m.id}/trades?limit=2` },
    { template: "/v1/markets/slug/{slug}/trades", kind: "trades", url: `/v1/markets/slug/${m.slug}/trades?outcomeId=${outcome}` },
    { template: "/v1/orderbooks", kind: "books", url: `/v1/orderbooks?outcomeIds=${m.outcomes.join(",")}` },
    { template: "/v1/prices-history", kind: "histories", url: `/v1/prices-history?outcomeIds=${m.outcomes.join(",")}&fidelity=5` },
    { template: "/v1/markets/{id}/candles", kind: "candles", url: `/v1/markets/${m.id}/candles?outcomeId=${outcome}&interval=1h` },
    { template: "/v1/markets/slug/{slug}/candles", kind: "candles", url: `/v1/markets/slug/${m.slug}/candles?outcomeId=${outcome}&interval=1h` },
    { template: "/v1/candles", kind: "candle-sets", url: `/v1/candles?outcomeIds=${m.outcomes.join(",")}&interval=1h` },
  ];
}
