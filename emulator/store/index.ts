export { Database } from "./database.js";
export type { Cursor, RowPageQuery, RowQuery, SortField } from "./list-query.js";
export { countRows, readPage, sortValue } from "./list-query.js";
export type { NewResourceRow, ResourceRow } from "./resource-table.js";
export { ResourceTable } from "./resource-table.js";
