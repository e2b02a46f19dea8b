export { type GetReposResult, getRepos, getReposOutput } from "./get-repos.js";
