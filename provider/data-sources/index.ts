export { lookup } from "./lookup.js";
export { toQuery } from "./to-query.js";
