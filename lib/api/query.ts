// Reading and validating query strings: repeated keys become arrays, zod issues become NestJS-style messages.
import type { z } from "zod";
import type { RawQuery } from "@/lib/markets/schemas";
import { badQuery } from "./errors";

export function searchParamsOf(input: URLSearchParams | Request | string): RawQuery {
  const params = typeof input === "string" ? new URLSearchParams(input) : input instanceof URLSearchParams ? input : new URL(input.url).searchParams;
  const out: RawQuery = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    // Defined, not assigned: `out.__proto__ = v` would set the prototype and the key would vanish unvalidated.
    Object.defineProperty(out, key, { value: all.length === 1 ? all[0] : all, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** One message per problem: unknown keys as "property <name> should not exist", others as the schema words them. */
export function zodMessages(error: z.ZodError): string[] {
  const messages: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) messages.push(`property ${key} should not exist`);
    } else {
      messages.push(issue.message);
    }
  }
  return [...new Set(messages)];
}

/** Parses a raw query with a schema or throws the 400 ApiError carrying every message. */
export function parseQuery<S extends z.ZodType>(schema: S, raw: RawQuery): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw badQuery(...zodMessages(result.error));
  return result.data;
}
