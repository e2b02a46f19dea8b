export { Database } from "./database.js";
export {
  type Cursor,
  countRows,
  type RowPageQuery,
  type RowQuery,
  readPage,
  type SortField,
  sortValue,
} from "./list-query.js";
export { type NewResourceRow, type ResourceRow, ResourceTable } from "./resource-table.js";
