export { type ExchangeTokenOptions, exchangeToken } from "./exchange-token-source.js";
export { staticToken, type TokenSource } from "./token-source.js";
