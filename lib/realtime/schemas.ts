// zod schema of the push protocol's requests (validated on the server; kept apart from channels.ts so the
// browser bundle does not carry zod for it).
import { z } from "zod";

/** Body of `join` and `leave`; `since` (join): a position to resume from (docs/api.md "Positions"). */
export const channelRequest = z.object({ channel: z.string().max(220), since: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional() });
