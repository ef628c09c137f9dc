// The building blocks of the API's schemas: ids, query parameters as URLSearchParams give them, ISO
// times, and the camelCase variant's derivation (docs/api.md "The camelCase variant").
import { z } from "zod";

/** Any uuid PostgreSQL accepts (8-4-4-4-12 hex), not only RFC 4122 versions: producers choose ids. */
export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const uuid = z.string().regex(UUID_RE, { error: "must be a UUID" }).meta({ format: "uuid" });
export const isUuid = (s: string) => UUID_RE.test(s);

/** A query value as read from URLSearchParams: a string, or an array when the key repeats. */
export type RawQuery = Record<string, string | string[]>;

export const oneOf = (name: string, values: readonly string[]) =>
  z.enum(values as [string, ...string[]], {
    error: `${name} must be one of the following values: ${values.join(", ")}`,
  });

export const intParam = (name: string, min: number, max?: number) => {
  const notInt = { error: `${name} must be an integer number` };
  let n = z.number().min(min, { error: `${name} must not be less than ${min}` });
  if (max !== undefined) n = n.max(max, { error: `${name} must not be greater than ${max}` });
  // Only plain decimal digits: rejects "", " 5", "1.5", "1e2", "0x10" that Number() would accept.
  return (
    z
      .string(notInt)
      .regex(/^-?\d+$/, notInt)
      .transform(Number)
      .pipe(n)
      // Documented as what it is to a client, an integer in range (the string form is a detail of query strings).
      .meta({
        override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
          delete jsonSchema.pattern;
          Object.assign(jsonSchema, { type: "integer", minimum: min }, max === undefined ? {} : { maximum: max });
        },
      })
  );
};

/** An intParam with a default, documented too (JSON Schema's input view drops defaults of transformed values). */
export const intParamWithDefault = (name: string, min: number, max: number | undefined, value: number, description: string) =>
  intParam(name, min, max)
    .default(value)
    .meta({
      description,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.default = value;
      },
    });

// ISO 8601 with offset, as PostgreSQL timestamptz → Date.toISOString()
export const iso = z.string().meta({ format: "date-time", example: "2025-06-01T12:00:00.000Z" });
export const nullableText = (description: string) => z.string().nullable().meta({ description });

/** A snake_case key camelCased at the type level, as `camelCase` does at run time. */
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
export type CamelShape<S extends z.ZodRawShape> = { [K in keyof S as CamelCase<K & string>]: S[K] };

export const camelCase = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function camelize<S extends z.ZodRawShape, O extends Record<string, z.ZodType>>(
  schema: z.ZodObject<S>,
  // Only keys of the camelCased shape may be restated.
  overrides: O & { [K in Exclude<keyof O, keyof CamelShape<S>>]: never },
) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) shape[camelCase(key)] = (overrides as Record<string, z.ZodType>)[camelCase(key)] ?? field;
  return z.object(shape) as unknown as z.ZodObject<Omit<CamelShape<S>, keyof O> & O>;
}

/** A decimal quantity as a string, so no client float rounds it. */
export const decimalString = (description: string, example: string) =>
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .meta({ description, example });
