// change_log as the hub reads it (./hub.ts ChangeSource): lib/events/change-log.ts's pages and bounds.
import "server-only";
import { db, readDb } from "@/lib/db/client";
import { changeLogBounds, readChanges } from "@/lib/events/change-log";
import type { ChangeSource } from "./hub";

export const changeLogSource: ChangeSource = {
  async readChanges(after, limit) {
    const page = await readChanges(await readDb(), after, limit);
    return page && page.map((c) => c.event);
  },
  // From the primary: a replica behind it would start the hub before changes it never hears (they were
  // committed before it listened), and nothing would ever send them.
  bounds: () => changeLogBounds(db()),
};
