// The market of a slug, loaded once per request for the metadata and the page; an unknown slug (one
// deleted since the layout checked it) becomes the 404 page.
import { cache } from "react";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/api/errors";
import { getMarket } from "@/lib/markets/queries";
import { marketDetailSchema } from "@/lib/markets/schemas";

export const loadMarket = cache(async (slug: string) => {
  try {
    return marketDetailSchema.parse(await getMarket({ slug }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
});
