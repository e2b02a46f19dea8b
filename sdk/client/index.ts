export { IrvClient, type IrvClientOptions } from "./irv-client.js";
export {
  type CallOptions,
  type CreateOptions,
  type ReadOnlyResourceClient,
  ResourceClient,
} from "./resource-client.js";
export {
  HttpTransport,
  parseRetryAfter,
  type TransportEvent,
  type TransportOptions,
  type TransportRequest,
} from "./transport.js";
