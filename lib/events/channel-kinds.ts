// The kinds of push channel (docs/api.md "Push channels"): what a change is announced to. Below both the
// change events (lib/events/market-events.ts maps each event kind to these) and the channels themselves
// (lib/realtime/channels.ts names them); no imports, so the browser can use it too.
export const CHANNEL_KINDS = ["price", "orderbook", "trades"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
