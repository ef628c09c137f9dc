// GET /v1/exports – the index of the daily Parquet exports (docs/api.md "Exports")
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelExportIndex, exportIndexQuery } from "@/lib/exports/names";
import { listExports } from "@/lib/exports/serve";

export const GET = route({ cache: "list", camel: camelExportIndex, offline: true }, async (req) =>
  listExports(parseQuery(exportIndexQuery, searchParamsOf(req))),
);
export const OPTIONS = preflight;
