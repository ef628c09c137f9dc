// GET /v1/exports/{dataset}/{day}.parquet – one day's file, streamed, with Range and HEAD (docs/api.md "Exports")
import { preflight } from "@/lib/api/route";
import { serveExportFile } from "@/lib/exports/serve";

export const GET = async (req: Request, { params }: { params: Promise<{ dataset: string; file: string }> }) => serveExportFile(req, await params);
export const OPTIONS = preflight;
