import { z } from "zod";

/**
 * The service's own principals an identity can stand for, by their published enum names
 * (`ServicePrincipal` in `iam/v2beta1/identities.proto:516-546`), in enum-number order from 1.
 * `SERVICE_PRINCIPAL_UNSPECIFIED` (0) is left out: it names no principal and is refused on write.
 *
 * @example
 * SERVICE_PRINCIPALS.includes("SERVICE_PRINCIPAL_INGESTER"); // true
 * SERVICE_PRINCIPALS.indexOf("SERVICE_PRINCIPAL_COSIGNED") + 1; // 1: its enum number
 */
export const SERVICE_PRINCIPALS = [
  "SERVICE_PRINCIPAL_COSIGNED",
  "SERVICE_PRINCIPAL_INGESTER",
  "SERVICE_PRINCIPAL_CATALOG_SYNCER",
  "SERVICE_PRINCIPAL_APKO_BUILDER",
  "SERVICE_PRINCIPAL_ENTITLEMENT_SYNCER",
  "SERVICE_PRINCIPAL_TENANT_SCANNER",
  "SERVICE_PRINCIPAL_SEDIMENTOLOGY",
  "SERVICE_PRINCIPAL_SKILLUP",
  "SERVICE_PRINCIPAL_MATERIALIZER",
  "SERVICE_PRINCIPAL_MICROFLOW",
  "SERVICE_PRINCIPAL_GUARDENER",
  "SERVICE_PRINCIPAL_MICROVM",
  "SERVICE_PRINCIPAL_SKILLS",
] as const;

/**
 * A service principal as written (create and update bodies, provider inputs): one of
 * {@link SERVICE_PRINCIPALS}; anything else is refused naming the accepted values.
 *
 * @example
 * ServicePrincipal.parse("SERVICE_PRINCIPAL_INGESTER");
 * ServicePrincipal.safeParse("REGISTRY").success; // false: not a published principal
 */
export const ServicePrincipal = z.enum(SERVICE_PRINCIPALS, {
  error: () => `must be one of ${SERVICE_PRINCIPALS.join(", ")}`,
});
/**
 * One of the service's own principals.
 *
 * @example
 * const p: ServicePrincipal = "SERVICE_PRINCIPAL_INGESTER";
 */
export type ServicePrincipal = z.infer<typeof ServicePrincipal>;

/**
 * A service principal as read. The service may add principals before this client knows them, so
 * any name is accepted (a string); a number (a gateway set to
 * `UseEnumNumbers`) becomes its name, or the number as text when it is not known yet.
 *
 * @example
 * ServicePrincipalRead.parse("SERVICE_PRINCIPAL_SOMETHING_NEW"); // kept as is
 * ServicePrincipalRead.parse(2);                                  // "SERVICE_PRINCIPAL_INGESTER"
 */
export const ServicePrincipalRead = z
  .union([z.string(), z.number().int()])
  .transform((v): string => (typeof v === "number" ? (SERVICE_PRINCIPALS[v - 1] ?? String(v)) : v));
