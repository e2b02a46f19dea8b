export type { AdvisoryListQuery, AnyListQuery, ListQuery, QueryValue } from "./list-query.js";
export { toQueryParams } from "./list-query.js";
export type { PageFetcher, ParallelOptions } from "./paginate.js";
export { collect, fetchAllParallel, MAX_PAGE_SIZE, paginate } from "./paginate.js";
