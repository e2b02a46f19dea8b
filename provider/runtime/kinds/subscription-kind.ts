import { z } from "zod";
import type { Subscription } from "../../../sdk/index.js";
import { SubscriptionSchema, sinkProblem } from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { required, uidInput } from "./inputs.js";
import { parentUidOf } from "./parent-uid.js";

/**
 * Inputs of `irv.events.Subscription`: the group whose events are sent, and the sink they are POSTed
 * to (https; http only on a loopback host, for a local receiver).
 *
 * @example
 * SubscriptionInputs.parse({ parentUid: orgUid, sink: "https://hooks.example.com/irv" });
 */
export const SubscriptionInputs = z.object({
  parentUid: uidInput("the uid of the group whose events are sent"),
  sink: z.string(required("the URL events are sent to")).superRefine((v, ctx) => {
    const problem = sinkProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});

/**
 * `irv.events.Subscription`: a webhook of a group's events. The service has no update: a new sink
 * (or group) replaces it, the new one first.
 *
 * @example
 * makeProvider(subscriptionKind, getClient);
 */
export const subscriptionKind = defineKind({
  type: "Subscription",
  singular: "subscription",
  inputs: SubscriptionInputs,
  inputKeys: ["parentUid", "sink"],
  replaceKeys: ["parentUid", "sink"],
  mutableKeys: [],
  outputs: SubscriptionSchema.pick({ uid: true }),
  create: (client, { parentUid, sink }) => client.subscriptions.create(parentUid, { sink }),
  get: (client, uid) => client.subscriptions.find(uid),
  update: () => Promise.reject(new Error("subscriptions are replaced, never updated")),
  delete: (client, uid) => client.subscriptions.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: Subscription) => ({ parentUid: parentUidOf(s.uid), sink: s.sink }),
  outputsOf: (s) => ({ parentUid: parentUidOf(s.uid), sink: s.sink, uid: s.uid }),
});
