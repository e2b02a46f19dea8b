import type * as pulumi from "@pulumi/pulumi";
import { dataSource, toQuery } from "../data-sources/index.js";
import type { Advisory, ListFilter, ListFilterInput } from "../types/index.js";

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

const source = dataSource("irv.vulnerabilities.getAdvisories", async (client, filter: ListFilter) => ({
  advisories: await client.advisories.collectParallel(toQuery(filter)),
}));

/**
 * Every vulnerability advisory matching the filter (all pages, fetched concurrently).
 *
 * @example
 * const { advisories } = await irv.vulnerabilities.getAdvisories({ descendantsOf: orgUid });
 */
export function getAdvisories(filter: ListFilter = {}): Promise<GetAdvisoriesResult> {
  return source.get(filter);
}

/**
 * {@link getAdvisories} taking Inputs and returning an Output.
 *
 * @example
 * export const critical = irv.vulnerabilities.getAdvisoriesOutput({ descendantsOf: org })
 *   .advisories.apply((a) => a.filter((x) => x.severity === "CRITICAL").length);
 */
export function getAdvisoriesOutput(filter: ListFilterInput = {}): pulumi.Output<GetAdvisoriesResult> {
  return source.output(filter);
}
