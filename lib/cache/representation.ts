// A /v1 answer as it is written, and the JSON value it is written from: the one hand-off between the read
// layer (lib/markets/reads/, lib/cache/response-cache.ts), the route wrapper (lib/api/route.ts) and the
// /v1 router (lib/http/api-router.ts).
//
// `Json` is a value and its JSON text made from one source, never apart: the text from the value, the value
// from the text (an answer kept as text), or both from the same parts (a list page put together from items
// kept packed, lib/markets/list-page.ts). Its value is frozen, so the text can never describe a value that
// has changed since; there is no way to give a Json another value's text. `Representation` is one media
// type's body of it, with the ETag of exactly that body. A Json makes each representation once and keeps
// it, so an answer handed out again (the hot tier, a kept list page) is neither serialized nor hashed again.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";

/** A JSON body: its text, or the text's UTF-8 bytes (an answer kept outside V8's heap). */
export type Body = string | Buffer;

const gzip = promisify(zlib.gzip);

/**
 * A hash of the body and its media type, so the two variants never share one. Weak: the server
 * gzips bodies for clients that accept it, after the route wrapper, and a strong validator must differ
 * between content-codings; a weak one is shared by them (RFC 9110 8.8.1), and If-None-Match
 * compares weakly anyway. A text and its UTF-8 bytes hash alike (a string is hashed as its UTF-8).
 */
export function etagOf(body: Body, mediaType: string): string {
  return `W/"${createHash("sha1").update(mediaType).update("\n").update(body).digest("base64url")}"`;
}

/** One media type's body of an answer, and the ETag of exactly that body. Immutable. */
export class Representation {
  readonly etag: string;
  /** The body's length in bytes (Content-Length before any content-coding). */
  readonly length: number;
  #gzipped: Promise<Buffer> | undefined;

  constructor(
    readonly mediaType: string,
    readonly body: Body,
  ) {
    this.etag = etagOf(body, mediaType);
    this.length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
    Object.freeze(this);
  }

  /** The body gzipped, made once for every request that is sent this representation. */
  gzipped(): Promise<Buffer> {
    this.#gzipped ??= gzip(this.body);
    return this.#gzipped;
  }
}

/** A value and its JSON text, made from one source (see the top of this file). */
export class Json<T = unknown> {
  #value: T | undefined;
  #text: Body | undefined;
  #makeValue: (() => T) | undefined;
  #makeText: (() => Body) | undefined;
  /** Each media type's representation, made when first asked: a media type names one shape of the value (docs/api.md). */
  readonly #representations = new Map<string, Representation>();
  readonly #members = new Map<string, Json>();

  private constructor(value: { made: T } | { make: () => T }, text: { made: Body } | { make: () => Body }) {
    if ("made" in value) this.#value = value.made;
    else this.#makeValue = value.make;
    if ("made" in text) this.#text = text.made;
    else this.#makeText = text.make;
  }

  /** A value's JSON: the text is JSON.stringify(value), made when first asked. The value is frozen (deeply). */
  static ofValue<T>(value: T): Json<T> {
    const frozen = deepFreeze(value);
    return new Json<T>({ made: frozen }, { make: () => JSON.stringify(frozen) });
  }

  /** A JSON text's value: parsed (and frozen) when first asked. `text` must be JSON (a text kept by the cache). */
  static ofText<T>(text: Body): Json<T> {
    return new Json<T>({ make: () => deepFreeze(JSON.parse(typeof text === "string" ? text : text.toString("utf8")) as T) }, { made: text });
  }

  /**
   * A value and its text both made from the same parts, each when first asked: `text()` must give exactly
   * JSON.stringify(value()), and `value()` a frozen value (lib/markets/list-page.test.ts holds list pages to it).
   */
  static ofParts<T>(parts: { value: () => T; text: () => Body }): Json<T> {
    return new Json<T>({ make: parts.value }, { make: parts.text });
  }

  get value(): T {
    if (this.#makeValue) {
      this.#value = this.#makeValue();
      this.#makeValue = undefined;
    }
    return this.#value as T;
  }

  get text(): Body {
    if (this.#makeText) {
      this.#text = this.#makeText();
      this.#makeText = undefined;
    }
    return this.#text as Body;
  }

  /** Whether its text was made already (a list page weighs its bytes only once they exist). */
  get hasText(): boolean {
    return this.#makeText === undefined;
  }

  /**
   * The body of `mediaType`: the text itself, or with `shape` the JSON of the value mapped to another shape
   * (the camelCase variant). Made once per media type.
   */
  representation(mediaType: string, shape?: (value: T) => unknown): Representation {
    let rep = this.#representations.get(mediaType);
    if (!rep) {
      rep = new Representation(mediaType, shape ? JSON.stringify(shape(this.value)) : this.text);
      this.#representations.set(mediaType, rep);
    }
    return rep;
  }

  /**
   * The Json of one of its value's own properties (a versioned book's `book`), made once: an answer that is
   * part of what was read is written from it without serializing it again. Undefined when `part` is not one
   * of its value's properties.
   */
  memberOf(part: unknown): Json | undefined {
    const value = this.value;
    if (typeof part !== "object" || part === null || typeof value !== "object" || value === null) return undefined;
    for (const key of Object.keys(value)) {
      // Data properties only: an accessor (a list page's lazily parsed `markets`) is not run for this.
      const member = Object.getOwnPropertyDescriptor(value, key)?.value;
      if (member !== part) continue;
      let json = this.#members.get(key);
      if (!json) {
        json = new Json({ made: member }, { make: () => JSON.stringify(member) });
        this.#members.set(key, json);
      }
      return json;
    }
    return undefined;
  }
}

/** Freezes a value and everything it holds, so that a text made from it stays its text. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value) || Buffer.isBuffer(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
