export { type ListFilter, type ListFilterInput, toQuery } from "./list-filter.js";
export { lookup } from "./lookup.js";
