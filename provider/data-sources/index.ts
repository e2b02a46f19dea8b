export type { DataSource } from "./data-source.js";
export { dataSource, exactlyOne } from "./data-source.js";
export { lookup } from "./lookup.js";
export { toQuery } from "./to-query.js";
