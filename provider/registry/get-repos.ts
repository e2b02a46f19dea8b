import type * as pulumi from "@pulumi/pulumi";
import { dataSource, toQuery } from "../data-sources/index.js";
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

const source = dataSource("irv.registry.getRepos", async (client, filter: ListFilter) => ({
  repos: await client.repos.collectParallel(toQuery(filter)),
}));

/**
 * Every registry repository matching the filter (all pages, fetched concurrently).
 *
 * @example
 * const { repos } = await irv.registry.getRepos({ descendantsOf: platform.uid });
 */
export function getRepos(filter: ListFilter = {}): Promise<GetReposResult> {
  return source.get(filter);
}

/**
 * {@link getRepos} taking Inputs and returning an Output.
 *
 * @example
 * export const repoNames = irv.registry.getReposOutput({ descendantsOf: platform.uid }).repos.apply((r) => r.map((x) => x.name));
 */
export function getReposOutput(filter: ListFilterInput = {}): pulumi.Output<GetReposResult> {
  return source.output(filter);
}
