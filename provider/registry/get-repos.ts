import type * as pulumi from "@pulumi/pulumi";
import type { Repo as WireRepo } from "../../sdk/index.js";
import { byUid, dataSource, toQuery } from "../data-sources/index.js";
import type { ByUid, InputsOf, ListFilter, ListFilterInput, Repo } from "../types/index.js";

/**
 * Result of {@link getRepos}.
 *
 * @example
 * const { repos }: irv.registry.GetReposResult = await irv.registry.getRepos({ childrenOf: teamUid });
 */
export interface GetReposResult {
  repos: Repo[];
}

// The lookups' repo: the wire's, `sync_config` under the package's name for it.
const repoOf = ({ sync_config, ...rest }: WireRepo): Repo =>
  sync_config === undefined ? rest : { ...rest, syncConfig: sync_config };

const source = dataSource("irv.registry.getRepos", async (client, filter: ListFilter) => ({
  repos: (await client.repos.collectParallel(toQuery(filter))).map(repoOf),
}));
const one = byUid("irv.registry.getRepo", (client) => ({
  get: async (uid: string) => repoOf(await client.repos.get(uid)),
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

/**
 * One registry repository by uid, with its sync settings and custom overlay.
 *
 * @example
 * const app = await irv.registry.getRepo({ uid: appUid });
 */
export function getRepo(args: ByUid): Promise<Repo> {
  return one.get(args);
}

/**
 * {@link getRepo} taking Inputs and returning an Output.
 *
 * @example
 * export const tier = irv.registry.getRepoOutput({ uid: app.uid }).catalogTier;
 */
export function getRepoOutput(args: InputsOf<ByUid>): pulumi.Output<Repo> {
  return one.output(args);
}
