export { parseRetryAfter, TOKEN_TIMEOUT } from "./http-call.js";
export { checkedBaseUrl, isLoopbackHost } from "./secure-url.js";
