import * as pulumi from "@pulumi/pulumi";
import { lookup, toQuery } from "../data-sources/index.js";
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

/**
 * Every vulnerability advisory matching the filter (all pages, fetched concurrently).
 *
 * @example
 * const { advisories } = await irv.vulnerabilities.getAdvisories({ descendantsOf: orgUid });
 */
export async function getAdvisories(filter: ListFilter = {}): Promise<GetAdvisoriesResult> {
  return {
    advisories: await lookup("irv.vulnerabilities.getAdvisories", (client) =>
      client.advisories.collectParallel(toQuery(filter)),
    ),
  };
}

/**
 * {@link getAdvisories} taking Inputs and returning an Output.
 *
 * @example
 * export const critical = irv.vulnerabilities.getAdvisoriesOutput({ descendantsOf: org })
 *   .advisories.apply((a) => a.filter((x) => x.severity === "CRITICAL").length);
 */
export function getAdvisoriesOutput(filter: ListFilterInput = {}): pulumi.Output<GetAdvisoriesResult> {
  return pulumi.output(filter).apply((f) => getAdvisories(f as ListFilter));
}
