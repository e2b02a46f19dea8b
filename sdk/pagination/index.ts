export { type ListQuery, toQueryParams } from "./list-query.js";
export {
  collect,
  fetchAllParallel,
  MAX_PAGE_SIZE,
  type PageFetcher,
  type ParallelOptions,
  paginate,
} from "./paginate.js";
