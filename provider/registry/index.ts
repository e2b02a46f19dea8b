export type { GetReposResult } from "./get-repos.js";
export { getRepos, getReposOutput } from "./get-repos.js";
export type { GetTagsArgs, GetTagsResult } from "./get-tags.js";
export { getTags, getTagsOutput } from "./get-tags.js";
export type { PullTokenArgs } from "./pull-token.js";
export { PullToken } from "./pull-token.js";
