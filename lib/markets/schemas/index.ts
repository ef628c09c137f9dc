// Zod schemas shared by route handlers, pages, client components and tests: the single source of
// the API's query rules and response shapes (docs/api.md), one file per resource. No server-only imports.
// In the order of the API's reference, which is the order their OpenAPI components are registered in.

// Enumerations live in a zod-free module so client code can import them without bundling zod.
export * from "../constants";
export { CANDLE_INTERVALS, CANDLE_LIMIT, type CandleInterval } from "../candles";
export { type CamelCase, camelCase, isUuid, type RawQuery, UUID_RE, uuid } from "./fields";
export * from "./queries";
export * from "./responses";
export * from "./camel";
export * from "./trades";
export * from "./batches";
export * from "./candles";
export * from "./past-books";
export * from "./market-changes";
