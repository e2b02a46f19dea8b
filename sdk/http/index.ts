export { parseRetryAfter } from "./http-call.js";
export { checkedBaseUrl, isLoopbackHost } from "./secure-url.js";
