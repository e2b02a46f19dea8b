export type { FieldFilter, ListFilterParam, ListParams, QueryValues } from "./list-params.js";
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseListParams, queryKey } from "./list-params.js";
export { PAGE_TOKEN_TTL_MS, PageTokens } from "./page-token.js";
