// GET /api/sub-categories – internal (not /v1): the sub-categories present for a status and category.
// Lenient like the list URL: bad values fall back. The list page itself reads them through lib.
import { route } from "@/lib/api/route";
import { listSubCategories } from "@/lib/markets/cache";
import { parseListView } from "@/lib/ui/list-params";

export const GET = route({ cache: "list" }, async (req) => {
  const view = parseListView(new URL(req.url).searchParams);
  return listSubCategories({ status: view.status, category: view.category });
});
