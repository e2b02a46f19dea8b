export {
  DEFAULT_PAGE_SIZE,
  type ListParams,
  MAX_PAGE_SIZE,
  parseListParams,
  type QueryValues,
  queryKey,
} from "./list-params.js";
export { PAGE_TOKEN_TTL_MS, PageTokens } from "./page-token.js";
