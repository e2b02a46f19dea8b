import { z } from "zod";
import { Timestamp, Uid } from "./common.js";

/**
 * Which workload tokens may assume an identity: the token's `iss` and `sub` must equal these.
 *
 * @example
 * ClaimMatch.parse({ issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" });
 */
export const ClaimMatch = z.object({
  issuer: z.string(),
  subject: z.string(),
});
/**
 * Issuer and subject a workload token must carry.
 *
 * @example
 * const match: ClaimMatch = {
 *   issuer: "https://token.actions.githubusercontent.com",
 *   subject: "repo:acme/app:ref:refs/heads/main",
 * };
 */
export type ClaimMatch = z.infer<typeof ClaimMatch>;

/**
 * An identity that workloads may assume.
 *
 * @example
 * const id: Identity = Identity.parse(body);
 */
export const Identity = z.object({
  uid: Uid,
  name: z.string(),
  description: z.string().optional(),
  claimMatch: ClaimMatch,
  lastSeenTime: Timestamp.optional(),
  createTime: Timestamp,
  updateTime: Timestamp,
});
/**
 * An identity that workloads may assume.
 *
 * @example
 * const id: Identity = await client.identities.get(uid);
 */
export type Identity = z.infer<typeof Identity>;

/**
 * Body of `POST /iam/v2beta1/identities/<group_uid>`.
 *
 * @example
 * IdentityCreate.parse({ name: "ci", claimMatch: { issuer: "https://issuer.example", subject: "ci" } });
 */
export const IdentityCreate = z.object({
  name: z.string().min(1, { message: "is required" }),
  description: z.string().optional(),
  claimMatch: z.object({
    issuer: z.string().min(1, { message: "is required" }),
    subject: z.string().min(1, { message: "is required" }),
  }),
});
/**
 * Body of an identity create.
 *
 * @example
 * const body: IdentityCreate = { name: "ci", claimMatch: { issuer, subject } };
 * await client.identities.create(teamUid, body);
 */
export type IdentityCreate = z.infer<typeof IdentityCreate>;

/**
 * The mutable fields of an identity, as PATCH paths (nested paths allowed under claimMatch).
 *
 * @example
 * IDENTITY_MUTABLE_FIELDS.includes("claimMatch.subject"); // true: one leaf can be masked alone
 */
export const IDENTITY_MUTABLE_FIELDS = [
  "name",
  "description",
  "claimMatch",
  "claimMatch.issuer",
  "claimMatch.subject",
] as const;
