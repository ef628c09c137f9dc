// The sub-categories present for a status and category, with their market counts: what the list's
// sub-category choice offers (read by lib/markets/queries.ts, served internally by app/api/sub-categories).
export interface SubCategoryCount {
  sub_category: string;
  count: number;
}
export type SubCategories = SubCategoryCount[];
