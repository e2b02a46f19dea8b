import type * as pulumi from "@pulumi/pulumi";
import { dataSource, toQuery } from "../data-sources/index.js";
import type { Advisory, InputsOf, ListFilter } from "../types/index.js";

/**
 * The filter of {@link getAdvisories}: the scoping and order of every lookup, plus the advisories
 * List's own filters. The service's advisories have no name and its List no `name` filter
 * (chainguard-dev/sdk, proto/chainguard/platform/vulnerabilities/v2beta1/advisories.proto:355-448):
 * it would ignore one and answer every advisory, so a `name` is refused here.
 *
 * @example
 * const f: irv.vulnerabilities.GetAdvisoriesFilter = { descendantsOf: orgUid, aliases: ["CVE-2021-44228"] };
 */
export interface GetAdvisoriesFilter extends ListFilter {
  /** @deprecated Advisories have no name: a non-empty `name` fails; filter by `advisoryIds` or `aliases`. */
  name?: string | undefined;
  /** CGA identifiers (`CGA-xvgw-cvr7-9g2q`): advisories with any of them. */
  advisoryIds?: string[] | undefined;
  /** Vulnerability identifiers (CVE, GHSA…): advisories listing any of them among their aliases. */
  aliases?: string[] | undefined;
}

/**
 * {@link GetAdvisoriesFilter} with Pulumi inputs, for {@link getAdvisoriesOutput}.
 *
 * @example
 * const f: irv.vulnerabilities.GetAdvisoriesFilterInput = { descendantsOf: platform.uid, aliases: [cve] };
 */
export type GetAdvisoriesFilterInput = {
  [K in keyof GetAdvisoriesFilter]?: K extends "advisoryIds" | "aliases"
    ? pulumi.Input<pulumi.Input<string>[] | undefined>
    : pulumi.Input<string | undefined>;
};

/**
 * Result of {@link getAdvisories}.
 *
 * @example
 * const result: irv.vulnerabilities.GetAdvisoriesResult = await irv.vulnerabilities.getAdvisories({
 *   descendantsOf: orgUid,
 * });
 */
export interface GetAdvisoriesResult {
  advisories: Advisory[];
}

const source = dataSource(
  "irv.vulnerabilities.getAdvisories",
  async (client, { advisoryIds, aliases, ...filter }: GetAdvisoriesFilter) => {
    if (filter.name)
      throw new Error(
        `advisories have no name, so the service cannot filter them by name ${JSON.stringify(filter.name)}: filter by advisoryIds (CGA-…) or aliases (CVE-…, GHSA-…) instead`,
      );
    const { name: _none, ...query } = toQuery(filter);
    return {
      advisories: await client.advisories.collectParallel({
        ...query,
        ...(advisoryIds?.length ? { advisoryIds } : {}),
        ...(aliases?.length ? { aliases } : {}),
      }),
    };
  },
);

/**
 * Every vulnerability advisory matching the filter (all pages, fetched concurrently).
 *
 * @example
 * const { advisories } = await irv.vulnerabilities.getAdvisories({ descendantsOf: orgUid });
 * const log4shell = await irv.vulnerabilities.getAdvisories({ aliases: ["CVE-2021-44228"] });
 */
export function getAdvisories(filter: GetAdvisoriesFilter = {}): Promise<GetAdvisoriesResult> {
  return source.get(filter);
}

/**
 * {@link getAdvisories} taking Inputs and returning an Output.
 *
 * @example
 * export const log4shellArtifacts = irv.vulnerabilities
 *   .getAdvisoriesOutput({ descendantsOf: org, aliases: ["CVE-2021-44228"] })
 *   .advisories.apply((a) => a.map((x) => x.artifactName));
 */
export function getAdvisoriesOutput(
  filter: GetAdvisoriesFilterInput = {},
): pulumi.Output<GetAdvisoriesResult> {
  // `pulumi.output` resolves the nested Inputs (list items too) to the plain filter.
  return source.output(filter as InputsOf<GetAdvisoriesFilter>);
}
