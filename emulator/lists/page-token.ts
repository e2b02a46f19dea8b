import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Clock } from "../core/index.js";
import { invalidArgument } from "../core/index.js";
import type { Cursor } from "../store/index.js";

/**
 * How long a page token stays valid (spec §8: 3 days).
 *
 * @example
 * now += PAGE_TOKEN_TTL_MS + 1; // the next page restarts from the beginning
 */
export const PAGE_TOKEN_TTL_MS = 3 * 24 * 60 * 60 * 1000;

interface Payload {
  /** Hash of the query the token belongs to. */
  q: string;
  /** Cursor: sort value and uid of the last row returned. */
  c: [string | number, string];
  /** Issue time, ms. */
  t: number;
}

const bad = (description: string) => invalidArgument([{ field: "page_token", description }]);

/**
 * Issues and reads page tokens: base64url JSON of the cursor, the query's hash and the issue time,
 * followed by an HMAC so that a token cannot be forged or edited. A token is bound to its query
 * (kind, filters, order); `page_size` and `skip` may change between pages.
 *
 * @example
 * const tokens = new PageTokens(secret, Date.now);
 * const t = tokens.issue("groups|…", ["b", uid]);
 * tokens.read(t, "groups|…"); // ["b", uid]
 */
export class PageTokens {
  constructor(
    private readonly secret: Buffer,
    private readonly clock: Clock,
    private readonly ttlMs: number = PAGE_TOKEN_TTL_MS,
  ) {}

  /**
   * A token that continues `query` after `cursor`.
   *
   * @example
   * tokens.issue(queryKey, [row.name, row.uid]);
   */
  issue(query: string, cursor: Cursor): string {
    const payload: Payload = { q: hashQuery(query), c: [cursor[0], cursor[1]], t: this.clock() };
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${body}.${this.sign(body)}`;
  }

  /**
   * The cursor of a token, or `undefined` when the token has expired (the list restarts from the
   * beginning, spec §7 rule 3). Throws code 3 for a forged or garbled token, or one of another query.
   *
   * @example
   * const after = tokens.read(params.pageToken, queryKey);
   */
  read(token: string, query: string): Cursor | undefined {
    const dot = token.indexOf(".");
    if (dot < 0) throw bad("is not a page token of this service");
    const body = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.sign(body), "base64url");
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
      throw bad("is not a page token of this service");
    }
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Payload;
    if (payload.q !== hashQuery(query)) {
      throw bad("belongs to a different query: keep the filters and order_by of the first page");
    }
    if (this.clock() - payload.t > this.ttlMs) return undefined;
    return payload.c;
  }

  private sign(body: string): string {
    return createHmac("sha256", this.secret).update(body).digest("base64url");
  }
}

function hashQuery(query: string): string {
  return createHash("sha256").update(query).digest("base64url").slice(0, 22);
}
