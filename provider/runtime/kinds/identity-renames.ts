import type { z } from "zod";
import { SERVICE_PRINCIPALS } from "../../../sdk/index.js";

/**
 * The identity inputs 0.x took under names of its own, and their published names
 * (`iam/v2beta1/identities.proto:221,264-309`). 0.x sent these to the service, which does not know
 * them; they are refused at check, naming the new field, rather than silently dropped.
 *
 * @example
 * IDENTITY_RENAMES_0X.find((r) => r.from === "static")?.to; // "staticKeys"
 */
export const IDENTITY_RENAMES_0X = [
  { from: "static", to: "staticKeys" },
  { from: "static.expiration", to: "staticKeys.expirationTime" },
  { from: "awsIdentity.awsArn", to: "awsIdentity.arn" },
  { from: "awsIdentity.awsArnPattern", to: "awsIdentity.arnPattern" },
  { from: "awsIdentity.awsUserId", to: "awsIdentity.userId" },
  { from: "awsIdentity.awsUserIdPattern", to: "awsIdentity.userIdPattern" },
] as const;

const MIGRATION = 'see "Migrating from 0.x" in docs/migrating.md';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const at = (obj: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((cur, k) => (isObject(cur) && Object.hasOwn(cur, k) ? cur[k] : undefined), obj);

/**
 * Reports every 0.x name in raw identity inputs (a renamed field, a service principal without its
 * `SERVICE_PRINCIPAL_` prefix) as a check failure naming its published form. Returns the inputs
 * unchanged, for `z.preprocess`.
 *
 * @example
 * const Inputs = z.preprocess(refuse0xNames, IdentityObject);
 * Inputs.safeParse({ static: {…} }).error?.issues[0]?.message; // "was renamed staticKeys, the published API's name …"
 */
export function refuse0xNames(raw: unknown, ctx: z.RefinementCtx): unknown {
  for (const { from, to } of IDENTITY_RENAMES_0X) {
    const path = from.split(".");
    // `static.expiration` is reported once, with `static` itself.
    if (path[0] === "static" && path.length > 1) continue;
    if (at(raw, path) === undefined) continue;
    const more = from === "static" ? " (its expiration is now expirationTime, optional)" : "";
    ctx.addIssue({
      code: "custom",
      path,
      message: `was renamed ${to}, the published API's name${more}: ${MIGRATION}`,
      input: undefined,
    });
  }
  const principal = at(raw, ["servicePrincipal"]);
  if (typeof principal === "string" && !principal.startsWith("SERVICE_PRINCIPAL_")) {
    const published = `SERVICE_PRINCIPAL_${principal}`;
    ctx.addIssue({
      code: "custom",
      path: ["servicePrincipal"],
      message: (SERVICE_PRINCIPALS as readonly string[]).includes(published)
        ? `is now written ${published}, the published enum name: ${MIGRATION}`
        : `is not a published service principal; must be one of ${SERVICE_PRINCIPALS.join(", ")}`,
      input: undefined,
    });
  }
  return raw;
}
