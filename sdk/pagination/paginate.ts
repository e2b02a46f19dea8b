import type { Page } from "../schemas/list.js";
import type { AnyListQuery } from "./list-query.js";

/**
 * Fetches one page for a query.
 *
 * @example
 * const fetchPage: PageFetcher<Group> = (q) => client.groups.list(q);
 * for await (const g of paginate(fetchPage, { childrenOf: orgUid })) console.log(g.name);
 */
export type PageFetcher<T, Q extends AnyListQuery = AnyListQuery> = (query: Q) => Promise<Page<T>>;

/**
 * The largest page the API serves.
 *
 * @example
 * const page = await client.groups.list({ descendantsOf: orgUid, pageSize: MAX_PAGE_SIZE });
 */
export const MAX_PAGE_SIZE = 200;

/**
 * Iterates every item of a list, page by page, following `nextPageToken` (largest pages by
 * default). Items come once each in the server's order: when a token has expired the server starts
 * again from the beginning (spec §7), and the items already yielded are not yielded again.
 *
 * @example
 * for await (const g of paginate((q) => client.groups.list(q), { descendantsOf: org })) console.log(g.name);
 */
export async function* paginate<T extends { uid: string }, Q extends AnyListQuery = AnyListQuery>(
  fetchPage: PageFetcher<T, Q>,
  query: Q = {} as Q,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let pageToken = query.pageToken;
  let skip = query.skip;
  do {
    const page = await fetchPage({ ...query, pageSize: query.pageSize ?? MAX_PAGE_SIZE, pageToken, skip });
    for (const item of page.items) {
      if (seen.has(item.uid)) continue;
      seen.add(item.uid);
      yield item;
    }
    pageToken = page.nextPageToken;
    skip = undefined;
  } while (pageToken);
}

/**
 * Collects an async iterable into an array.
 *
 * @example
 * const all = await collect(paginate(fetchPage, { childrenOf: uid }));
 */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Options of {@link fetchAllParallel}.
 *
 * @example
 * const repos = await client.repos.collectParallel({ descendantsOf: orgUid }, { concurrency: 8 });
 */
export interface ParallelOptions {
  /** Pages in flight at once after the first (default 4). */
  concurrency?: number;
}

/**
 * Fetches every item using `totalCount` and `skip`: the first page says how many there are, the
 * remaining pages are fetched concurrently (bounded) by offset and returned in order. Much faster
 * than following cursors when each call has latency. If the list grew meanwhile, the cursor of the
 * last page is followed to the end; duplicates (items shifted by concurrent inserts) are dropped.
 *
 * @example
 * const repos = await fetchAllParallel((q) => client.repos.list(q), { descendantsOf: org }, { concurrency: 8 });
 */
export async function fetchAllParallel<T extends { uid: string }, Q extends AnyListQuery = AnyListQuery>(
  fetchPage: PageFetcher<T, Q>,
  query: Q = {} as Q,
  options: ParallelOptions = {},
): Promise<T[]> {
  const pageSize = query.pageSize ?? MAX_PAGE_SIZE;
  const baseSkip = query.skip ?? 0;
  const rest = { ...query, pageToken: undefined };
  const first = await fetchPage({ ...rest, pageSize, skip: baseSkip || undefined });
  if (!first.nextPageToken || first.totalCount === undefined) {
    const tail = first.nextPageToken
      ? await collect(paginate(fetchPage, { ...rest, pageSize, pageToken: first.nextPageToken }))
      : [];
    return dedupe([...first.items, ...tail]);
  }
  const remaining = Math.max(0, first.totalCount - baseSkip - first.items.length);
  const pages = Math.ceil(remaining / pageSize);
  const results: Page<T>[] = new Array(pages);
  let next = 0;
  const worker = async () => {
    while (next < pages) {
      const i = next++;
      results[i] = await fetchPage({ ...rest, pageSize, skip: baseSkip + first.items.length + i * pageSize });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, pages) }, worker));
  const items = [...first.items, ...results.flatMap((p) => p.items)];
  const last = results.at(-1) ?? first;
  if (last.nextPageToken)
    items.push(...(await collect(paginate(fetchPage, { ...rest, pageSize, pageToken: last.nextPageToken }))));
  return dedupe(items);
}

function dedupe<T extends { uid: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    if (seen.has(i.uid)) return false;
    seen.add(i.uid);
    return true;
  });
}
