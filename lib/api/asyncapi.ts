// The AsyncAPI 3.0 document of the push channels (docs/api.md "Push channels"): server-sent events on
// GET /v1/stream and Socket.IO on /socket.io. Its schemas are generated from the zod schemas of the payloads
// (lib/realtime/payload-schemas.ts), which embed the REST schemas of the book, the trade and the market, by the
// same generator as the OpenAPI document (lib/api/openapi.ts): the two documents cannot disagree on a field.
import { z } from "zod";
import { createSchema } from "zod-openapi";
import { Json } from "@/lib/cache/representation";
import { CHANNEL_KINDS, type ChannelKind } from "@/lib/events/channel-kinds";
import { CAMEL_MEDIA_TYPE, SLUG_PATTERN } from "@/lib/markets/schemas";
import { MARKETS_CHANNEL, SOCKET_PATH } from "@/lib/realtime/channels";
import {
  channelHeartbeatSchema,
  channelResetSchema,
  HEARTBEAT_INTERVAL_MS,
  joinAckSchema,
  joinRequestSchema,
  leaveAckSchema,
  leaveRequestSchema,
  marketEventSchema,
  orderbookEventSchema,
  priceEventSchema,
  STREAM_MAX_CHANNELS,
  STREAM_PATH,
  STREAMS_PER_CLIENT,
  streamHeartbeatSchema,
  streamQuerySchema,
  streamResetSchema,
  tradesEventSchema,
} from "@/lib/realtime/payload-schemas";

/** The event (SSE `event:`, Socket.IO event name) and payload schema of each kind of change. */
const CHANGE_EVENTS = {
  price: { schema: priceEventSchema, title: "Prices changed" },
  orderbook: { schema: orderbookEventSchema, title: "Book changed" },
  trades: { schema: tradesEventSchema, title: "Trades" },
  market: { schema: marketEventSchema, title: "Market changed" },
} satisfies Record<ChannelKind | "market", { schema: z.ZodType; title: string }>;
type ChangeEvent = keyof typeof CHANGE_EVENTS;

/** The kind's change event, and the markets channel's. */
const eventOf = (channel: ChannelKind | typeof MARKETS_CHANNEL): ChangeEvent => (channel === MARKETS_CHANNEL ? "market" : channel);

/** The JSON Schemas of every payload, and of the REST components they embed, as components of the document. */
function payloadSchemas(): Record<string, unknown> {
  const schemas = [
    ...Object.values(CHANGE_EVENTS).map((e) => e.schema),
    streamResetSchema,
    streamHeartbeatSchema,
    channelResetSchema,
    channelHeartbeatSchema,
    joinRequestSchema,
    joinAckSchema,
    leaveRequestSchema,
    leaveAckSchema,
  ];
  // As responses, as the OpenAPI document's are ("output": no unknown keys).
  const components: Record<string, unknown> = {};
  for (const schema of schemas) Object.assign(components, createSchema(schema, { io: "output", openapiVersion: "3.1.0" }).components);
  return components;
}

function idOf(schema: z.ZodType): string {
  const id = schema.meta()?.id;
  if (typeof id !== "string") throw new Error("a payload schema needs a meta id");
  return id;
}

const ref = (path: string) => ({ $ref: `#/${path}` });
const schemaRef = (schema: z.ZodType) => ref(`components/schemas/${idOf(schema)}`);
/** An inline JSON Schema (an object of parameters or headers: nothing in it has an id). */
const inline = (schema: z.ZodType) => createSchema(schema, { io: "input", openapiVersion: "3.1.0" }).schema;

// ---------------------------------------------------------------- server-sent events

const lastEventIdHeaders = z.object({
  "Last-Event-ID": z
    .string()
    .regex(/^\d+$/)
    .optional()
    .meta({ description: "The id of the last event handled (a position): resume after it. EventSource sends it by itself when it reconnects." }),
  Accept: z
    .string()
    .optional()
    .meta({ description: `text/event-stream; ${CAMEL_MEDIA_TYPE} picks the camelCase variant, as shape=camel does.` }),
});

/** The SSE fields of an event beside its data, as message headers. */
function sseFields(event: string, id: string) {
  return {
    type: "object",
    properties: {
      event: { type: "string", const: event, description: "The event's `event:` field." },
      id: { type: "string", pattern: "^\\d+$", description: `The event's \`id:\` field: ${id}` },
    },
    required: ["event", "id"],
  };
}

function sseMessages() {
  const changes = Object.fromEntries(
    Object.entries(CHANGE_EVENTS).map(([event, { schema, title }]) => [
      `sse${capital(event)}`,
      {
        name: event,
        title,
        summary: schema.meta()?.description,
        headers: sseFields(event, "the change's position; send it back as Last-Event-ID (or since) to resume after it."),
        payload: schemaRef(schema),
      },
    ]),
  );
  return {
    sseRequest: {
      name: "stream request",
      title: `GET ${STREAM_PATH}`,
      summary: "Opens a stream of the channels named in `channels`, from a position or live.",
      bindings: { http: { headers: inline(lastEventIdHeaders), bindingVersion: "0.3.0" } },
    },
    ...changes,
    sseReset: {
      name: "reset",
      title: "Reset",
      summary: streamResetSchema.meta()?.description,
      headers: sseFields("reset", "the newest position (the same as `position`)."),
      payload: schemaRef(streamResetSchema),
    },
    sseHeartbeat: {
      name: "heartbeat",
      title: "Heartbeat",
      summary: streamHeartbeatSchema.meta()?.description,
      headers: sseFields("heartbeat", "the position the stream has delivered up to."),
      payload: schemaRef(streamHeartbeatSchema),
    },
  };
}

const SSE_DESCRIPTION = [
  "`text/event-stream`, opened with `retry: 1000`. Each change is an event whose `id:` is its position, `event:` its kind",
  "and `data:` one line of JSON. With `Last-Event-ID` (or `since`; the header wins) the stream first sends every change",
  "after that position on its channels, in order, then the live ones; without either, live ones only, and it starts with a",
  "`heartbeat` naming the current position. A position older than the retention window (or ahead of the newest, or a",
  "truncated table) gets a `reset` event instead: refetch, then carry on from it. A stream silent for",
  `${HEARTBEAT_INTERVAL_MS} ms sends a \`heartbeat\`. Works with curl, EventSource and any HTTP client.`,
  "",
  `Limits: 1..${STREAM_MAX_CHANNELS} channels per stream, at most ${STREAMS_PER_CLIENT} streams per client (429 past it);`,
  "the request is rate limited like any /v1 GET. Errors are the API's JSON: 400 (an invalid or unknown parameter,",
  "channel list, channel or Last-Event-ID, too many channels), 404 (`Unknown market: <slug>`), 429.",
].join("\n");

// ---------------------------------------------------------------- Socket.IO

function socketMessages() {
  const changes = Object.fromEntries(
    Object.entries(CHANGE_EVENTS).map(([event, { schema, title }]) => [
      `socket${capital(event)}`,
      { name: event, title, summary: schema.meta()?.description, payload: schemaRef(schema) },
    ]),
  );
  return {
    ...changes,
    socketReset: { name: "reset", title: "Reset", summary: channelResetSchema.meta()?.description, payload: schemaRef(channelResetSchema) },
    socketHeartbeat: { name: "heartbeat", title: "Heartbeat", summary: channelHeartbeatSchema.meta()?.description, payload: schemaRef(channelHeartbeatSchema) },
    join: { name: "join", title: "Join a channel", payload: schemaRef(joinRequestSchema) },
    joinAck: { title: "join's acknowledgement", summary: "The argument of join's ack callback.", payload: schemaRef(joinAckSchema) },
    leave: { name: "leave", title: "Leave a channel", payload: schemaRef(leaveRequestSchema) },
    leaveAck: { title: "leave's acknowledgement", summary: "The argument of leave's ack callback.", payload: schemaRef(leaveAckSchema) },
  };
}

/** The events a socket in a channel's room hears: its change event, reset, and on a market's channels heartbeats. */
function roomEvents(name: ChannelKind | typeof MARKETS_CHANNEL): string[] {
  return name === MARKETS_CHANNEL ? [eventOf(name), "reset"] : [eventOf(name), "heartbeat", "reset"];
}

/** The Socket.IO room of a channel. */
function roomChannel(name: ChannelKind | typeof MARKETS_CHANNEL) {
  return {
    address: name === MARKETS_CHANNEL ? MARKETS_CHANNEL : `market:{slug}:${name}`,
    title: name === MARKETS_CHANNEL ? "The catalogue" : `A market's ${name}`,
    description: `Joined with \`join\`; its events go to every socket in it.`,
    servers: [ref("servers/socketio")],
    ...(name === MARKETS_CHANNEL ? {} : { parameters: { slug: ref("components/parameters/slug") } }),
    messages: Object.fromEntries(roomEvents(name).map((m) => [m, ref(`components/messages/socket${capital(m)}`)])),
  };
}

/** What the server sends to a channel's room. */
function roomOperation(name: ChannelKind | typeof MARKETS_CHANNEL) {
  const event = eventOf(name);
  const markets = name === MARKETS_CHANNEL;
  return {
    action: "send",
    title: roomEvents(name).join(", "),
    summary: `What a socket in ${markets ? "`markets`" : `\`market:{slug}:${name}\``} hears.`,
    description: markets
      ? "`market` for each change of the catalogue, in position order; `reset` when a `join` with `since` cannot be " +
        "replayed, or when many markets were added at once (`bulk`: read the catalogue again)."
      : `\`${event}\` for each change (live, the changes of one 150 ms window, REALTIME_COALESCE_MS, fold into one signal whose ` +
        "position is the newest; a replay sends each), `heartbeat` when the channel was silent, `reset` after a `join` " +
        "whose `since` cannot be replayed.",
    channel: ref(`channels/${roomId(name)}`),
    messages: roomEvents(name).map((m) => ref(`channels/${roomId(name)}/messages/${m}`)),
  };
}

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);
const ROOMS = [...CHANNEL_KINDS, MARKETS_CHANNEL] as const;
const roomId = (name: (typeof ROOMS)[number]) => `socket${capital(name)}`;

function buildDocument() {
  const streamEvents = [...Object.keys(CHANGE_EVENTS), "reset", "heartbeat"];
  const host = {
    description: "The host (and port) this document was fetched from: the same origin serves the API, the stream and Socket.IO.",
    examples: ["localhost:3000"],
  };
  return {
    asyncapi: "3.0.0",
    info: {
      title: "Prediction markets – push channels",
      version: "1.0.0",
      description: [
        "Changes of markets, books and trades as they commit, over server-sent events (GET /v1/stream) or Socket.IO (/socket.io).",
        "",
        "**Channels.** `market:{slug}:price`, `market:{slug}:orderbook`, `market:{slug}:trades` (one market) and `markets`",
        "(the catalogue: markets created, changed, resolved, deleted).",
        "",
        "**Positions.** Every change has a position: the same on every instance and replica, growing in commit order, kept",
        "24 hours by default (CHANGES_RETENTION_HOURS). A client that keeps the last position it handled resumes from it on",
        "any instance and gets exactly what it missed, in order; past the retention window it gets a `reset` (refetch).",
        "",
        "**Data.** What an event carries is what the REST API answers: the book, trades and market items are the schemas",
        "of the OpenAPI document (/v1/openapi.json), in the primary shape or, on a stream with shape=camel, the camelCase one.",
        "",
        'The rules in full: docs/api.md "Push channels" in the repository. This document is served at /v1/asyncapi.json.',
      ].join("\n"),
    },
    defaultContentType: "application/json",
    servers: {
      sse: {
        host: "{host}",
        protocol: "http",
        title: "Server-sent events",
        description: "The API's origin (https where TLS ends in front of it).",
        variables: { host },
      },
      socketio: {
        host: "{host}",
        pathname: SOCKET_PATH,
        protocol: "ws",
        title: "Socket.IO",
        description:
          `Socket.IO 4 (Engine.IO 4) at path ${SOCKET_PATH}, default namespace: WebSocket, or HTTP long-polling before the upgrade ` +
          '(clients that keep no cookies need the load balancer to route by the sid\'s prefix: docs/deploy.md "Stickiness").',
        variables: { host },
      },
    },
    channels: {
      stream: {
        address: STREAM_PATH,
        title: "Server-sent events",
        description: SSE_DESCRIPTION,
        servers: [ref("servers/sse")],
        messages: Object.fromEntries(["request", ...streamEvents].map((e) => [e, ref(`components/messages/sse${capital(e)}`)])),
      },
      socket: {
        address: "/",
        title: "A Socket.IO connection",
        description: "The default namespace: a socket joins and leaves channels here, each acknowledged.",
        servers: [ref("servers/socketio")],
        messages: {
          join: ref("components/messages/join"),
          joinAck: ref("components/messages/joinAck"),
          leave: ref("components/messages/leave"),
          leaveAck: ref("components/messages/leaveAck"),
        },
      },
      ...Object.fromEntries(ROOMS.map((name) => [roomId(name), roomChannel(name)])),
    },
    operations: {
      openStream: {
        action: "receive",
        title: `GET ${STREAM_PATH}`,
        summary: "Open a stream of one or more channels, resuming from a position or live.",
        description: SSE_DESCRIPTION,
        channel: ref("channels/stream"),
        messages: [ref("channels/stream/messages/request")],
        bindings: { http: { method: "GET", query: inline(streamQuerySchema), bindingVersion: "0.3.0" } },
        reply: { channel: ref("channels/stream"), messages: streamEvents.map((e) => ref(`channels/stream/messages/${e}`)) },
      },
      join: {
        action: "receive",
        title: "join",
        summary: "Join a channel; with `since`, the channel's missed changes first.",
        description:
          "Acknowledged once the socket is in the channel. With `since` the server first sends every change of the channel " +
          "after that position (its kind's event, `replay: true`, in order), then acks with the position it reached; a `since` " +
          "it cannot replay gets a `reset` event and an ack with `reset: true`. Just after a resumed join a change may come " +
          "twice (replayed, then as a live signal): drop an event whose position is not above the newest one handled. " +
          "Refused: `{ok: false, error}` (a malformed channel, an unknown market, more than 100 channels per socket or " +
          "about 100 requests a second).",
        channel: ref("channels/socket"),
        messages: [ref("channels/socket/messages/join")],
        reply: { channel: ref("channels/socket"), messages: [ref("channels/socket/messages/joinAck")] },
      },
      leave: {
        action: "receive",
        title: "leave",
        summary: "Leave a channel.",
        channel: ref("channels/socket"),
        messages: [ref("channels/socket/messages/leave")],
        reply: { channel: ref("channels/socket"), messages: [ref("channels/socket/messages/leaveAck")] },
      },
      ...Object.fromEntries(ROOMS.map((name) => [`${roomId(name)}Events`, roomOperation(name)])),
    },
    components: {
      schemas: payloadSchemas(),
      messages: { ...sseMessages(), ...socketMessages() },
      parameters: {
        slug: { description: `A market's slug (${SLUG_PATTERN}).`, examples: ["will-btc-close-above-100k-in-2025"] },
      },
    },
  };
}

let cached: ReturnType<typeof buildDocument> | undefined;

/** Built once per process: the schemas do not change at run time. */
export function asyncApiDocument() {
  return (cached ??= buildDocument());
}

let cachedJson: Json | undefined;

/** The document as GET /v1/asyncapi.json writes it: its text and ETag made once (lib/cache/representation.ts). */
export function asyncApiJson(): Json {
  return (cachedJson ??= Json.ofText(JSON.stringify(asyncApiDocument())));
}
