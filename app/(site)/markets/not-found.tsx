// A notFound() under /markets: the same page the market page draws for an unknown slug.
export { MarketNotFound as default } from "@/components/markets/market-not-found";
