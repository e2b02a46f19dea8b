import { z } from "zod";
import type { IrvClient } from "../../sdk/index.js";
import type { AnyKind } from "../runtime/index.js";
import { groupKind, identityKind, roleBindingKind } from "../runtime/index.js";

/**
 * What a pending create asked for, to recognise what it made.
 *
 * @example
 * const request: CreateRequest = { parentUid: orgUid, body: { name: "team-a" } };
 */
export interface CreateRequest {
  /** The group the create was sent to. */
  parentUid: string;
  /** The fields the create sent (a `<x>Uid` matches the hydrated `<x>.uid` of the server's). */
  body: Record<string, unknown>;
}

/**
 * How `recover` finds what a pending create of one resource kind made: the create it sent, the
 * resources that could be its result, and the provider's kind to turn one into state outputs.
 *
 * @example
 * const kind = RECOVER_KINDS["pulumi-nodejs:dynamic/irv:Group"];
 */
export interface RecoverKind {
  /** The provider's kind (its input and wire types vary by kind). */
  definition: AnyKind;
  request(inputs: Record<string, unknown>): CreateRequest;
  /** Resources under the same parent with the same identifying fields (name; a binding's identity and role). */
  candidates(
    client: IrvClient,
    request: CreateRequest,
  ): Promise<({ uid: string } & Record<string, unknown>)[]>;
}

const GroupRequest = z.object({
  parentUid: z.string(),
  name: z.string(),
  description: z.string().optional(),
});
const IdentityRequest = z.object({
  groupUid: z.string(),
  name: z.string(),
  description: z.string().optional(),
  claimMatch: z.object({ issuer: z.string(), subject: z.string() }),
});
const BindingRequest = z.object({ groupUid: z.string(), identityUid: z.string(), roleUid: z.string() });

const TOKEN = "pulumi-nodejs:dynamic/irv:";

/**
 * One entry per resource kind the provider creates, keyed by type token: a new kind is one entry.
 *
 * @example
 * RECOVER_KINDS[`pulumi-nodejs:dynamic/irv:RoleBinding`]?.request(inputs);
 */
export const RECOVER_KINDS: Readonly<Record<string, RecoverKind>> = {
  [`${TOKEN}Group`]: {
    definition: groupKind,
    request(inputs) {
      const { parentUid, ...body } = GroupRequest.parse(inputs);
      return { parentUid, body };
    },
    candidates: async (client, r) =>
      (await client.groups.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items,
  },
  [`${TOKEN}Identity`]: {
    definition: identityKind,
    request(inputs) {
      const { groupUid, ...body } = IdentityRequest.parse(inputs);
      return { parentUid: groupUid, body };
    },
    candidates: async (client, r) =>
      (await client.identities.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items,
  },
  [`${TOKEN}RoleBinding`]: {
    definition: roleBindingKind,
    request(inputs) {
      const { groupUid, ...body } = BindingRequest.parse(inputs);
      return { parentUid: groupUid, body };
    },
    // A binding has no name: the same identity and role in the same group is the same binding.
    candidates: async (client, r) =>
      (await client.roleBindings.collect({ childrenOf: r.parentUid })).filter(
        (b) => b.identity.uid === r.body.identityUid && b.role.uid === r.body.roleUid,
      ),
  },
};
