// Shape of the internal sub-category list (served by app/api/sub-categories, not part of /v1).
import { z } from "zod";

export const subCategoriesSchema = z.array(z.object({ sub_category: z.string(), count: z.number().int() }));
export type SubCategories = z.infer<typeof subCategoriesSchema>;
