// The schemas the browser parses /v1 responses with, gathered in one lazily imported chunk.
import "@/lib/ui/zod-without-eval";
export { errorBodySchema, marketDetailSchema, marketListResponseSchema, orderBookSchema, priceHistorySchema } from "@/lib/markets/schemas";
export { subCategoriesSchema } from "@/lib/ui/sub-categories";
