// The ingest stream's format (docs/ingest.md): one JSON object per line, `{"<kind>": <row>}`, the row in
// the import file's shape (lib/markets/import-schemas.ts), so a line is validated exactly as that row of
// an import would be. An order also carries its updated_at, which orders its states (docs/ingest.md#order).
// No server-only imports: the generator and the tests use it too.
import { z } from "zod";
import { formatPath, firstIssue } from "../import/import";
import { importMarketSchema, importOrderSchema, importTradeSchema, importUserSchema } from "../markets/import-schemas";

const timestamp = z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp with offset" });

export const ingestOrderSchema = importOrderSchema.safeExtend({ updated_at: timestamp });

export const EVENT_KINDS = ["user", "market", "order", "trade"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

const SCHEMAS = { user: importUserSchema, market: importMarketSchema, order: ingestOrderSchema, trade: importTradeSchema } as const;

export type IngestUser = z.output<typeof importUserSchema>;
export type IngestMarket = z.output<typeof importMarketSchema>;
export type IngestOrder = z.output<typeof ingestOrderSchema>;
export type IngestTrade = z.output<typeof importTradeSchema>;

export type IngestEvent =
  | { kind: "user"; row: IngestUser }
  | { kind: "market"; row: IngestMarket }
  | { kind: "order"; row: IngestOrder }
  | { kind: "trade"; row: IngestTrade };

export type Parsed = { ok: true; event: IngestEvent } | { ok: false; error: string };

const KIND_RULE = `expected an object with one key: ${EVENT_KINDS.join(", ")}`;

/** One line of the stream: its event, or the first problem as `<json path>: <message>` (as the importer's). */
export function parseLine(line: string): Parsed {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (err) {
    return { ok: false, error: `(root): not JSON (${(err as Error).message})` };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { ok: false, error: `(root): ${KIND_RULE}` };
  const keys = Object.keys(data);
  if (keys.length !== 1) return { ok: false, error: `(root): ${KIND_RULE}` };
  const kind = keys[0];
  if (!(EVENT_KINDS as readonly string[]).includes(kind)) return { ok: false, error: `${formatPath([kind])}: unknown event kind; ${KIND_RULE}` };
  const r = SCHEMAS[kind as EventKind].safeParse((data as Record<string, unknown>)[kind], { reportInput: true });
  if (!r.success) {
    const issue = firstIssue(r.error);
    return { ok: false, error: issue.startsWith("(root)") ? `${kind}${issue.slice(6)}` : `${kind}${issue.startsWith("[") ? "" : "."}${issue}` };
  }
  if (kind === "market" && (r.data as IngestMarket).comments.length > 0)
    return { ok: false, error: "market.comments: comments are not part of the stream; import them (docs/import.md)" };
  return { ok: true, event: { kind, row: r.data } as IngestEvent };
}

/** A line of the stream for an event (the generator's and the tests' writer). */
export const formatEvent = (kind: EventKind, row: object): string => JSON.stringify({ [kind]: row });
