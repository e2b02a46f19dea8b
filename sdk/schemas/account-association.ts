import { z } from "zod";
import { Int64, OptionalString, optionalMessage, repeated, Timestamp, Uid } from "./common.js";

const required = z.string().min(1, { message: "is required" });
const INT64_KEY = /^-?\d+$/;

/**
 * The cloud providers an association may name, each a block of its own (published
 * `iam/account_associations.proto:179-200`); all optional.
 *
 * @example
 * ACCOUNT_PROVIDERS.filter((p) => association[p] !== undefined); // ["amazon", "github"]
 */
export const ACCOUNT_PROVIDERS = ["amazon", "google", "azure", "github", "chainguard"] as const;

/**
 * One GitHub App installation (published `GitHubInstallation`, `:230-236`): `installationId` is an
 * int64, so a decimal string on the wire (a number is accepted and sent as a string).
 *
 * @example
 * GitHubInstallation.parse({ installationId: 42, name: "acme" }); // { installationId: "42", name: "acme" }
 */
export const GitHubInstallation = z.object({ installationId: Int64, name: OptionalString });

/**
 * The GitHub block (published `GitHub`, `:217-227`): the installations of each GitHub App, keyed by
 * the app id (an int64 map key, a decimal string in JSON).
 *
 * @example
 * GitHub.parse({ appInstallations: { "1234": { installations: [{ installationId: "42" }] } } });
 */
export const GitHub = z.object({
  appInstallations: z
    .record(
      z.string().regex(INT64_KEY, { message: "keys must be GitHub App ids (integers)" }),
      z.object({ installations: repeated(GitHubInstallation) }),
    )
    .nullish()
    .transform((v) => v ?? {}),
});

const blocks = {
  amazon: z.object({
    account: z.string().regex(/^\d{12}$/, { message: "must be a 12-digit AWS account id" }),
  }),
  google: z.object({
    projectId: required,
    projectNumber: z.string().regex(/^\d+$/, { message: "must be digits" }),
  }),
  azure: z.object({ tenantId: required, clientIds: z.record(z.string(), z.string()) }),
  github: GitHub,
  chainguard: z.object({ serviceBindings: z.record(z.string(), z.string()) }),
};

/**
 * The account association of a group (published `AccountAssociation`, `:158-252`). There is one per
 * group at most, and its `uid` is the group's uid. An unset provider block comes back as `null`
 * (grpc-gateway's default) and reads as absent.
 *
 * @example
 * const a = AccountAssociations.parse(body);
 * a.uid === groupUid; // true
 */
export const AccountAssociations = z.object({
  uid: Uid,
  name: z.string(),
  description: OptionalString,
  amazon: optionalMessage(blocks.amazon),
  google: optionalMessage(blocks.google),
  azure: optionalMessage(blocks.azure),
  github: optionalMessage(blocks.github),
  chainguard: optionalMessage(blocks.chainguard),
  createTime: Timestamp,
  updateTime: Timestamp,
});
/**
 * The account association of a group.
 *
 * @example
 * const a: AccountAssociations = await client.accountAssociations.get(groupUid);
 */
export type AccountAssociations = z.infer<typeof AccountAssociations>;

/**
 * Body of `POST /iam/v2beta1/accountAssociations/<group_uid>`, which makes that group's association
 * (a second one is refused with ALREADY_EXISTS). Only `name` is required (`:173`).
 *
 * @example
 * AccountAssociationsCreate.parse({ name: "prod", amazon: { account: "123456789012" } });
 */
export const AccountAssociationsCreate = z.object({
  name: required,
  description: z.string().optional(),
  amazon: blocks.amazon.optional(),
  google: blocks.google.optional(),
  azure: blocks.azure.optional(),
  github: blocks.github.optional(),
  chainguard: blocks.chainguard.optional(),
});
/**
 * Body of an account associations create, as callers write it (installation ids may be numbers).
 *
 * @example
 * const body: AccountAssociationsCreate = {
 *   name: "prod",
 *   github: { appInstallations: { "1234": { installations: [{ installationId: "42" }] } } },
 * };
 */
export type AccountAssociationsCreate = z.input<typeof AccountAssociationsCreate>;

/**
 * The wire form of an association body: GitHub installation ids as decimal strings (int64 in
 * protojson); everything else as given.
 *
 * @example
 * encodeAccountAssociations({ github: { appInstallations: { "1": { installations: [{ installationId: 42 }] } } } });
 * // → installationId: "42"
 */
export function encodeAccountAssociations(body: Record<string, unknown>): Record<string, unknown> {
  const apps = (body.github as { appInstallations?: unknown } | null | undefined)?.appInstallations;
  if (apps === null || typeof apps !== "object") return body;
  const encoded = Object.fromEntries(
    Object.entries(apps as Record<string, unknown>).map(([app, v]) => {
      const list = (v as { installations?: unknown } | null)?.installations;
      if (!Array.isArray(list)) return [app, v];
      return [
        app,
        {
          ...(v as object),
          installations: list.map((i) =>
            i !== null &&
            typeof i === "object" &&
            typeof (i as { installationId?: unknown }).installationId === "number"
              ? { ...i, installationId: String((i as { installationId: number }).installationId) }
              : i,
          ),
        },
      ];
    }),
  );
  return { ...body, github: { ...(body.github as object), appInstallations: encoded } };
}

/**
 * The mutable fields of account associations, as PATCH paths (each provider as a whole).
 *
 * @example
 * await client.accountAssociations.update(groupUid, {}, { updateMask: ["azure"] }); // drops azure
 */
export const ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS = ["name", "description", ...ACCOUNT_PROVIDERS] as const;
