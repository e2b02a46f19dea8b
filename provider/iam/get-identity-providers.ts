import type * as pulumi from "@pulumi/pulumi";
import { dataSource, toQuery } from "../data-sources/index.js";
import type { IdentityProvider, InputsOf, ListFilter } from "../types/index.js";

/**
 * Result of {@link getIdentityProviders} (client secrets are never returned).
 *
 * @example
 * const { identityProviders }: irv.iam.GetIdentityProvidersResult = await irv.iam.getIdentityProviders({});
 */
export interface GetIdentityProvidersResult {
  identityProviders: IdentityProvider[];
}

const idps = dataSource("irv.iam.getIdentityProviders", async (client, filter: ListFilter) => ({
  identityProviders: await client.identityProviders.collectParallel(toQuery(filter)),
}));

/**
 * Every identity provider matching the filter (all pages).
 *
 * @example
 * const { identityProviders } = await irv.iam.getIdentityProviders({ descendantsOf: orgUid });
 */
export function getIdentityProviders(filter: ListFilter = {}): Promise<GetIdentityProvidersResult> {
  return idps.get(filter);
}

/**
 * {@link getIdentityProviders} taking Inputs and returning an Output.
 *
 * @example
 * export const issuers = irv.iam.getIdentityProvidersOutput({ childrenOf: platform.uid }).identityProviders.apply((l) => l.map((p) => p.oidc.issuer));
 */
export function getIdentityProvidersOutput(
  filter: InputsOf<ListFilter> = {},
): pulumi.Output<GetIdentityProvidersResult> {
  return idps.output(filter);
}
