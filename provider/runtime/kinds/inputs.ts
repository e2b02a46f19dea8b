import { z } from "zod";
import type { UidForm } from "../../../sdk/index.js";
import { isLoopbackHost, uidProblem } from "../../../sdk/index.js";

/**
 * The error of a missing or mistyped input, saying what the input is.
 *
 * @example
 * z.string(required("the group name"));
 */
export const required = (what: string) => ({
  error: (i: { input: unknown }) =>
    i.input === undefined ? `is required: ${what}` : `must be a string: ${what}`,
});

/**
 * A uid input, held to the rule the client applies before a uid becomes a URL path (role uids are
 * flat hex, every other uid hierarchical).
 *
 * @example
 * z.object({ groupUid: uidInput("the uid of the group"), roleUid: uidInput("the role", "flat") });
 */
export const uidInput = (what: string, form: UidForm = "hierarchical") =>
  z.string(required(what)).superRefine((v, ctx) => {
    const problem = uidProblem(v, form);
    if (problem) ctx.addIssue({ code: "custom", message: `${problem}: ${what}` });
  });

/**
 * A resource name input (defaulted to the logical name by the classes).
 *
 * @example
 * z.object({ name: nameInput("the role name") });
 */
export const nameInput = (what: string) => z.string(required(what)).min(1, { message: "must not be empty" });

/**
 * Whether a URL is https, or http on a loopback address (the local emulator's issuer).
 *
 * @example
 * isIssuerUrl("https://token.actions.githubusercontent.com"); // true
 */
export function isIssuerUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === "https:" || (u.protocol === "http:" && isLoopbackHost(u.hostname));
  } catch {
    return false;
  }
}

/**
 * The message of {@link isIssuerUrl}.
 *
 * @example
 * z.string().refine(isIssuerUrl, { message: ISSUER_URL_RULE });
 */
export const ISSUER_URL_RULE =
  "must be an https URL (http is accepted only on a loopback address, for the local emulator)";

/**
 * A claimMatch issuer: an https URL, or http on a loopback address (the local emulator's issuer).
 *
 * @example
 * IssuerUrl.parse("https://token.actions.githubusercontent.com");
 */
export const IssuerUrl = z
  .string(required("the identity provider URL"))
  .refine(isIssuerUrl, { message: ISSUER_URL_RULE });
