// GET /v1/orderbooks?outcomeIds=… – the books of up to 50 outcomes, each as GET /v1/markets/{id}/orderbook answers it
import { answerEach, camelBatch } from "@/lib/api/batch";
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelOrderBook } from "@/lib/markets/camel";
import { orderBookReader } from "@/lib/markets/reads/books";
import type { VersionedBook } from "@/lib/markets/sql/books";
import { orderBooksQuery, type OrderBooksResponse } from "@/lib/markets/schemas";

// Each item also carries its book's version and checksum, null with an error (additive; docs/api.md "Book versions").
const camelItems = camelBatch("book", camelOrderBook);

export const GET = route(
  {
    cache: "book",
    camel: (books: OrderBooksResponse) => ({
      items: camelItems(books).items.map((item, i) => ({ ...item, version: books.items[i].version, checksum: books.items[i].checksum })),
    }),
  },
  async (req): Promise<OrderBooksResponse> => {
    const { outcomeIds } = parseQuery(orderBooksQuery, searchParamsOf(req));
    const read = await orderBookReader(outcomeIds);
    const versioned = new Map<string, VersionedBook>();
    const { items } = await answerEach(outcomeIds, "book", async (id) => {
      const v = await read(id);
      versioned.set(id, v);
      return v.book;
    });
    return {
      items: items.map((item) => ({
        ...item,
        version: versioned.get(item.outcome_id)?.version ?? null,
        checksum: versioned.get(item.outcome_id)?.checksum ?? null,
      })),
    };
  },
);
export const OPTIONS = preflight;
