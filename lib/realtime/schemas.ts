// zod schema of the push protocol's requests (validated on the server; kept apart from channels.ts so the
// browser bundle does not carry zod for it).
import { z } from "zod";

/** Body of `join` and `leave`. */
export const channelRequest = z.object({ channel: z.string().max(220) });
