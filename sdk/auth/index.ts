export type { ExchangeTokenOptions } from "./exchange-token-source.js";
export { exchangeToken } from "./exchange-token-source.js";
export type { GithubActionsTokenOptions } from "./github-actions-token-source.js";
export { GITHUB_ACTIONS_ENV, githubActionsToken } from "./github-actions-token-source.js";
export type { GitlabTokenOptions } from "./gitlab-token-source.js";
export { DEFAULT_GITLAB_TOKEN_VARIABLE, gitlabToken } from "./gitlab-token-source.js";
export type { TokenSource } from "./token-source.js";
export { staticToken } from "./token-source.js";
