import { z } from "zod";
import type { UidForm } from "../../../sdk/index.js";
import {
  GROUP_NAME_PATTERN,
  GROUP_NAME_PATTERN_SOURCE,
  isLoopbackHost,
  uidProblem,
} from "../../../sdk/index.js";

const required = (what: string) => ({
  error: (i: { input: unknown }) =>
    i.input === undefined ? `is required: ${what}` : `must be a string: ${what}`,
});

/** A uid input, held to the rule the client applies before a uid becomes a URL path. */
const uidInput = (what: string, form: UidForm = "hierarchical") =>
  z.string(required(what)).superRefine((v, ctx) => {
    const problem = uidProblem(v, form);
    if (problem) ctx.addIssue({ code: "custom", message: `${problem}: ${what}` });
  });

/**
 * A claimMatch issuer: an https URL, or http on a loopback address (the local emulator's issuer).
 *
 * @example
 * IssuerUrl.parse("https://token.actions.githubusercontent.com");
 */
export const IssuerUrl = z.string(required("the identity provider URL")).refine(
  (v) => {
    try {
      const u = new URL(v);
      return u.protocol === "https:" || (u.protocol === "http:" && isLoopbackHost(u.hostname));
    } catch {
      return false;
    }
  },
  { message: "must be an https URL (http is accepted only on a loopback address, for the local emulator)" },
);

/**
 * Inputs of `irv.iam.Group`.
 *
 * @example
 * GroupInputs.parse({ parentUid: org, name: "team-a" });
 */
export const GroupInputs = z.object({
  parentUid: uidInput("the uid of the parent group (the organization uid for a top-level group)"),
  name: z
    .string(required("the group name"))
    .regex(GROUP_NAME_PATTERN, { message: `must match the pattern ${GROUP_NAME_PATTERN_SOURCE}` }),
  description: z.string().optional(),
});

/**
 * Inputs of `irv.iam.Identity`.
 *
 * @example
 * IdentityInputs.parse({ groupUid, name: "ci", claimMatch: { issuer: "https://…", subject: "repo:acme/app:ref:refs/heads/main" } });
 */
export const IdentityInputs = z.object({
  groupUid: uidInput("the uid of the group the identity belongs to"),
  name: z.string(required("the identity name")).min(1, { message: "must not be empty" }),
  description: z.string().optional(),
  claimMatch: z.object(
    {
      issuer: IssuerUrl,
      subject: z
        .string(required("the token subject that may assume the identity"))
        .min(1, { message: "must not be empty" }),
    },
    required("issuer and subject of the workload tokens that may assume the identity"),
  ),
});

/**
 * Inputs of `irv.iam.RoleBinding`.
 *
 * @example
 * RoleBindingInputs.parse({ groupUid, identityUid, roleUid });
 */
export const RoleBindingInputs = z.object({
  groupUid: uidInput("the uid of the group the binding grants the role in"),
  identityUid: uidInput("the uid of the identity that gets the role"),
  roleUid: uidInput("the uid of the role (see irv.iam.getRole)", "flat"),
});
