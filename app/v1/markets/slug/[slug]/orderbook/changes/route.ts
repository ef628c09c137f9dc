// GET /v1/markets/slug/{slug}/orderbook/changes – an outcome's book changes by version, for replay (docs/api.md "Past books")
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { Answer, preflight, route } from "@/lib/api/route";
import { camelBookChanges } from "@/lib/markets/camel";
import { getBookChanges } from "@/lib/markets/reads/book-log";
import { bookChangesQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "book", camel: camelBookChanges }, async (req, { params }) => {
  const query = parseQuery(bookChangesQuery, searchParamsOf(req));
  const page = await getBookChanges({ slug: (await params).slug, ...query });
  // A full page that is not the last never changes; the last one grows as the book does.
  return page.next_version !== null ? new Answer(page, {}, "final") : page;
});
export const OPTIONS = preflight;
