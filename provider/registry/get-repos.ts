import * as pulumi from "@pulumi/pulumi";
import { lookup, toQuery } from "../data-sources/index.js";
import type { ListFilter, ListFilterInput, Repo } from "../types/index.js";

/**
 * Result of {@link getRepos}.
 *
 * @example
 * const { repos }: irv.registry.GetReposResult = await irv.registry.getRepos({ childrenOf: teamUid });
 */
export interface GetReposResult {
  repos: Repo[];
}

/**
 * Every registry repository matching the filter (all pages, fetched concurrently).
 *
 * @example
 * const { repos } = await irv.registry.getRepos({ descendantsOf: platform.uid });
 */
export async function getRepos(filter: ListFilter = {}): Promise<GetReposResult> {
  return {
    repos: await lookup("irv.registry.getRepos", (client) => client.repos.collectParallel(toQuery(filter))),
  };
}

/**
 * {@link getRepos} taking Inputs and returning an Output.
 *
 * @example
 * export const repoNames = irv.registry.getReposOutput({ descendantsOf: platform.uid }).repos.apply((r) => r.map((x) => x.name));
 */
export function getReposOutput(filter: ListFilterInput = {}): pulumi.Output<GetReposResult> {
  return pulumi.output(filter).apply((f) => getRepos(f as ListFilter));
}
