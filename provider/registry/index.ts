export type { GetReposResult } from "./get-repos.js";
export { getRepos, getReposOutput } from "./get-repos.js";
