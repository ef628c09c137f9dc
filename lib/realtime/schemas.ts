// zod schemas of the push protocol (validated on the server; kept apart from channels.ts so the
// browser bundle does not carry zod for them).
import { z } from "zod";
import type { Signal } from "./channels";

/** Body of `join` and `leave`. */
export const channelRequest = z.object({ channel: z.string().max(220) });

export const signalSchema = z.object({
  channel: z.string(),
  slug: z.string(),
  outcomeId: z.string().nullable(),
  at: z.number().int(),
  seq: z.number().int().min(1),
}) satisfies z.ZodType<Signal>;
