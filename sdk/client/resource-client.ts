import type { z } from "zod";
import { ApiError } from "../errors/api-error.js";
import type { AnyListQuery, ListQuery } from "../pagination/list-query.js";
import { toQueryParams } from "../pagination/list-query.js";
import type { ParallelOptions } from "../pagination/paginate.js";
import { collect, fetchAllParallel, paginate } from "../pagination/paginate.js";
import type { RetryPolicy } from "../retry/should-retry.js";
import type { ApiVersion, KindSpec } from "../schemas/kinds.js";
import { collectionPath } from "../schemas/kinds.js";
import type { Page } from "../schemas/list.js";
import { listEnvelope } from "../schemas/list.js";
import { alreadyExists, LOST_CREATE_CLOCK_SKEW_MS, lostCreateMismatch } from "./lost-create.js";
import type { HttpTransport } from "./transport.js";
import { uidFormOf, uidPath } from "./uid-path.js";

/**
 * A field path in proto field names: `claimMatch.subject` → `claim_match.subject`.
 *
 * @example
 * protoFieldPath("oidc.clientSecret"); // "oidc.client_secret"
 */
export function protoFieldPath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Per-call options.
 *
 * @example
 * const group = await client.groups.get(uid, { signal: AbortSignal.timeout(5_000), retry: NO_RETRY });
 */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  retry?: Readonly<RetryPolicy> | undefined;
}

/**
 * Options of {@link ResourceClient.create}.
 *
 * @example
 * const options: CreateOptions<Group> = {
 *   findExisting: async () => (await client.groups.list({ childrenOf: orgUid, name: "team-a" })).items[0],
 * };
 * const team = await client.groups.create(orgUid, { name: "team-a" }, options);
 */
export interface CreateOptions<T> extends CallOptions {
  /**
   * Finds the resource this create would have made (by name under its parent, say). With it, a
   * create whose outcome is unknown (the connection broke after sending, or the service was
   * unavailable) is looked up before it is sent again, so a lost response never makes a duplicate.
   * What it finds is adopted only when it matches the request (parent and every sent field) and was
   * created after the first attempt began; anything else is ALREADY_EXISTS naming its uid.
   */
  findExisting?: (() => Promise<T | undefined>) | undefined;
  /** How far the server's clock may lag ours (default {@link LOST_CREATE_CLOCK_SKEW_MS}). */
  clockSkewMs?: number | undefined;
}

/**
 * Read operations of one resource kind.
 *
 * @example
 * const page = await client.repos.list({ descendantsOf: org, pageSize: 10 });
 */
export interface ReadOnlyResourceClient<T extends { uid: string }, Q extends AnyListQuery = ListQuery> {
  /** One page. */
  list(query?: Q, options?: CallOptions): Promise<Page<T>>;
  /** Every item, page after page, as an async iterator. */
  listAll(query?: Q): AsyncGenerator<T, void, undefined>;
  /** Every item in an array (cursor by cursor). */
  collect(query?: Q): Promise<T[]>;
  /** Every item in an array, remaining pages fetched concurrently by offset. */
  collectParallel(query?: Q, options?: ParallelOptions): Promise<T[]>;
  /** One resource by uid; NOT_FOUND is an {@link ApiError}. */
  get(uid: string, options?: CallOptions): Promise<T>;
  /** One resource by uid, or undefined when it does not exist. */
  find(uid: string, options?: CallOptions): Promise<T | undefined>;
}

/**
 * List/Get/Create/Update/Delete of one resource kind, built from its {@link KindSpec}.
 *
 * @example
 * const team = await client.groups.create(orgUid, { name: "team-a" });
 * await client.groups.update(team.uid, { description: "Team A" }, { updateMask: ["description"] });
 * await client.groups.delete(team.uid);
 */
export class ResourceClient<T extends { uid: string }, C, Q extends AnyListQuery = ListQuery>
  implements ReadOnlyResourceClient<T, Q>
{
  /** The collection's path at the client's API version. */
  protected readonly base: string;
  private readonly envelope: z.ZodType<Page<T>>;

  constructor(
    protected readonly transport: HttpTransport,
    /** The kind this client serves. */
    readonly kind: KindSpec,
    /** The API version whose paths it speaks (a kind without a GA copy stays on v2beta1). */
    version: ApiVersion = "v2",
  ) {
    this.base = collectionPath(kind, version);
    this.envelope = listEnvelope(kind.collection, kind.schema) as unknown as z.ZodType<Page<T>>;
  }

  list(query: Q = {} as Q, options: CallOptions = {}): Promise<Page<T>> {
    return this.transport.send({
      method: "GET",
      path: this.base,
      query: toQueryParams(query),
      schema: this.envelope,
      signal: options.signal,
      retry: options.retry,
    });
  }

  listAll(query: Q = {} as Q): AsyncGenerator<T, void, undefined> {
    return paginate((q) => this.list(q), query);
  }

  collect(query: Q = {} as Q): Promise<T[]> {
    return collect(this.listAll(query));
  }

  collectParallel(query: Q = {} as Q, options: ParallelOptions = {}): Promise<T[]> {
    return fetchAllParallel((q) => this.list(q), query, options);
  }

  async get(uid: string, options: CallOptions = {}): Promise<T> {
    return (await this.transport.send({
      method: "GET",
      path: this.itemPath(uid),
      schema: this.kind.schema,
      signal: options.signal,
      retry: options.retry,
    })) as T;
  }

  async find(uid: string, options: CallOptions = {}): Promise<T | undefined> {
    try {
      return await this.get(uid, options);
    } catch (e) {
      if (e instanceof ApiError && e.isNotFound()) return undefined;
      throw e;
    }
  }

  /**
   * Creates a resource under `parentUid` (a group; `undefined` for flat kinds such as roles).
   *
   * @example
   * await client.identities.create(teamUid, { name: "ci", claimMatch: { issuer, subject } }, {
   *   findExisting: async () => (await client.identities.list({ childrenOf: teamUid, name: "ci" })).items[0],
   * });
   */
  async create(parentUid: string | undefined, body: C, options: CreateOptions<T> = {}): Promise<T> {
    const path =
      parentUid === undefined ? this.base : `${this.base}/${uidPath(parentUid, "parentUid", "hierarchical")}`;
    const { findExisting } = options;
    const wire = this.encode(body);
    const sent = {
      // A flat uid (roles) says nothing of its group: `findExisting` scopes the search instead.
      parentUid: uidFormOf(this.kind.collection) === "flat" ? undefined : parentUid,
      body,
      startedAt: Date.now(),
      clockSkewMs: options.clockSkewMs ?? LOST_CREATE_CLOCK_SKEW_MS,
    };
    return (await this.transport.send({
      method: "POST",
      path,
      body: wire,
      schema: this.kind.schema,
      signal: options.signal,
      retry: options.retry,
      // With a way to find the result, an unknown outcome is resolved by looking before resending.
      onOutcomeUnknown:
        findExisting &&
        (async () => {
          const found = await findExisting();
          if (found === undefined) return undefined;
          const mismatch = lostCreateMismatch(found, sent);
          if (mismatch) throw alreadyExists("POST", path, found.uid, mismatch);
          return found;
        }),
    })) as T;
  }

  /**
   * Updates a resource. With `updateMask`, only the listed fields change and a listed field absent
   * from `body` is cleared; without it, the fields present in `body` change. See `computeUpdate`.
   *
   * @example
   * await client.groups.update(uid, {}, { updateMask: ["description"] }); // clears the description
   */
  async update(
    uid: string,
    body: Partial<C> & Record<string, unknown>,
    options: CallOptions & { updateMask?: readonly string[] | undefined } = {},
  ): Promise<T> {
    // FieldMask paths are proto field names (`claim_match.subject`): the gateway hands the query's
    // mask to the service verbatim, and the masks it derives from bodies are snake_case too.
    const query = options.updateMask
      ? { updateMask: options.updateMask.map(protoFieldPath).join(",") }
      : undefined;
    return (await this.transport.send({
      method: "PATCH",
      path: this.itemPath(uid),
      query,
      body: this.encode(body),
      schema: this.kind.schema,
      signal: options.signal,
      retry: options.retry,
    })) as T;
  }

  /**
   * Deletes a resource. Resolves when it is gone.
   *
   * @example
   * await client.roleBindings.delete(binding.uid);
   */
  async delete(uid: string, options: CallOptions & { ignoreNotFound?: boolean } = {}): Promise<void> {
    try {
      await this.transport.send({
        method: "DELETE",
        path: this.itemPath(uid),
        schema: undefined,
        signal: options.signal,
        retry: options.retry,
      });
    } catch (e) {
      if (options.ignoreNotFound && e instanceof ApiError && e.isNotFound()) return;
      throw e;
    }
  }

  private encode(body: unknown): unknown {
    const { encode } = this.kind;
    return encode && typeof body === "object" && body !== null
      ? encode(body as Record<string, unknown>)
      : body;
  }

  /**
   * The path of one item, its uid checked first.
   *
   * @example
   * this.itemPath(repo.uid); // "/registry/v2/repos/<uid>"
   */
  protected itemPath(uid: string): string {
    // Checked before it becomes a path: URL parsing would resolve `..` and reach another resource.
    return `${this.base}/${uidPath(uid, "uid", uidFormOf(this.kind.collection))}`;
  }
}
