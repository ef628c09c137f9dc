// npm run db:migrate – applies pending migrations to DATABASE_URL or the embedded database.
import { closeDb, db } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";

const database = await resolveDatabase();
try {
  const done = await migrate(db(), (m) => console.log(m));
  console.log(done.length ? `applied ${done.length} migration(s)` : "schema is up to date");
} finally {
  await closeDb();
  await database.stop();
}
