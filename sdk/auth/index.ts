export { type ExchangeTokenOptions, exchangeToken } from "./exchange-token-source.js";
export {
  GITHUB_ACTIONS_ENV,
  type GithubActionsTokenOptions,
  githubActionsToken,
} from "./github-actions-token-source.js";
export {
  DEFAULT_GITLAB_TOKEN_VARIABLE,
  type GitlabTokenOptions,
  gitlabToken,
} from "./gitlab-token-source.js";
export { staticToken, type TokenSource } from "./token-source.js";
