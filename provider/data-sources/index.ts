export { byUid } from "./by-uid.js";
export type { DataSource } from "./data-source.js";
export { dataSource, exactlyOne } from "./data-source.js";
export type { DataSourceRead } from "./data-source-table.js";
export { dataSourceTable } from "./data-source-table.js";
export { lazyClient } from "./lazy-client.js";
export { lookup } from "./lookup.js";
export { presetFunction } from "./preset-function.js";
export { toQuery } from "./to-query.js";
