import { z } from "zod";
import type { Identity, IrvClient, RoleBinding } from "../../../sdk/index.js";
import { DURATION_RULE, durationMs, IdentitySchema } from "../../../sdk/index.js";
import type { KindEnv, Props } from "../kind-definition.js";
import { defineKind } from "../kind-definition.js";
import { nameInput, uidInput } from "./inputs.js";
import { defined, parentUidOf } from "./parent-uid.js";

const HOUR_MS = 3_600_000;
/** A pull token's default lifetime: 30 days, as the service's CLI makes them. */
export const PULL_TOKEN_DEFAULT_TTL = "720h";
/** The longest: static keys are trusted at most 365 days (`iam/v2beta1/identities.proto:276-278`). */
export const PULL_TOKEN_MAX_TTL_MS = 365 * 24 * HOUR_MS;
/** The shortest: one hour, the lifetime of an exchanged API token. */
export const PULL_TOKEN_MIN_TTL_MS = HOUR_MS;
/** The role a pull token gets when `roleUid` is not given. */
export const PULL_TOKEN_DEFAULT_ROLE = "registry.pull";
/**
 * The issuer and subject of every pull token's credential. Never fetched (static keys carry their
 * public key), so the `.invalid` name (RFC 2606) says it is no place to go; the identity's own key
 * pair is what tells tokens apart.
 */
export const PULL_TOKEN_ISSUER = "https://pulumi-irv.invalid/pull-token";
const PULL_TOKEN_SUBJECT = "pull-token";

const ttlInput = (what: string) =>
  z.string().refine((t) => durationMs(t) !== undefined, { message: `${DURATION_RULE}: ${what}` });

/**
 * Inputs of `irv.registry.PullToken`: the group whose repositories it pulls, a name, how long it
 * lives (`ttl`, default 720h) and the role it holds (default the built-in `registry.pull`);
 * `rotateBefore` makes `pulumi up` replace a token that expires within it.
 *
 * @example
 * PullTokenInputs.parse({ groupUid, name: "k8s-pull", ttl: "720h", rotateBefore: "168h" });
 */
export const PullTokenInputs = z
  .object({
    groupUid: uidInput("the uid of the group whose repositories the token pulls"),
    name: nameInput("the pull token's name (its identity's)"),
    description: z.string().optional(),
    ttl: ttlInput("how long the token is valid from its create")
      .refine(
        (t) => {
          const ms = durationMs(t) ?? 0;
          return ms >= PULL_TOKEN_MIN_TTL_MS && ms <= PULL_TOKEN_MAX_TTL_MS;
        },
        { message: `must be from 1h to 8760h (365 days, the longest the service trusts static keys)` },
      )
      .optional(),
    roleUid: uidInput(
      "the uid of the role the token holds (default: the built-in registry.pull)",
      "flat",
    ).optional(),
    rotateBefore: ttlInput("how long before its expiration `pulumi up` replaces the token").optional(),
  })
  .superRefine((i, ctx) => {
    if (i.rotateBefore === undefined) return;
    const ttl = durationMs(i.ttl ?? PULL_TOKEN_DEFAULT_TTL) ?? 0;
    if ((durationMs(i.rotateBefore) ?? 0) >= ttl)
      ctx.addIssue({
        code: "custom",
        path: ["rotateBefore"],
        message: `must be shorter than ttl (${i.ttl ?? PULL_TOKEN_DEFAULT_TTL}), or every pulumi up would replace the token`,
      });
  });
type PullTokenInputs = z.infer<typeof PullTokenInputs>;

/** A pull token as the service has it: its identity, its binding and, after a create only, the password. */
interface PullTokenServer {
  uid: string;
  identity: Identity;
  binding: RoleBinding | undefined;
  password?: string | undefined;
  registryHost?: string | undefined;
}

// Identity names are unique in a group, and a replacement is made before the token it replaces:
// each token's identity is named after the token and its expiration ("ci-pull-20261226T101500Z").
const STAMP = /-\d{8}T\d{6}Z$/;
const identityName = (name: string, expirationTime: string) =>
  `${name}-${expirationTime.replace(/[-:]/g, "")}`;
const tokenName = (identity: string) => identity.replace(STAMP, "");

const seconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

async function defaultRoleUid(client: IrvClient): Promise<string> {
  for await (const role of client.roles.listAll({ name: PULL_TOKEN_DEFAULT_ROLE }))
    if (role.name === PULL_TOKEN_DEFAULT_ROLE) return role.uid;
  throw new Error(
    `the service has no built-in role ${PULL_TOKEN_DEFAULT_ROLE}: give the pull token a roleUid (see irv.iam.getRole)`,
  );
}

async function bindingOf(client: IrvClient, identity: Identity): Promise<RoleBinding | undefined> {
  for await (const b of client.roleBindings.listAll({ childrenOf: parentUidOf(identity.uid) }))
    if (b.identity.uid === identity.uid) return b;
  return undefined;
}

/**
 * The `~/.docker/config.json` (and Kubernetes `kubernetes.io/dockerconfigjson`) text that logs in to
 * `host` with the token.
 *
 * @example
 * JSON.parse(dockerConfigJson("cgr.dev", uid, password)).auths["cgr.dev"].username; // uid
 */
export function dockerConfigJson(host: string, username: string, password: string): string {
  const auth = Buffer.from(`${username}:${password}`).toString("base64");
  return JSON.stringify({ auths: { [host]: { username, password, auth } } });
}

// The key pair lives in this function only: the public half goes to the identity, the private half
// signs one token and is dropped (it is never exported, so it cannot reach state or logs).
async function createPullToken(
  client: IrvClient,
  i: PullTokenInputs,
  env: KindEnv,
): Promise<PullTokenServer> {
  const roleUid = i.roleUid ?? (await defaultRoleUid(client));
  // Loaded here, not at module load (as the sdk's token sources do): every provider process loads
  // the kind table, and only a pull token's create signs anything.
  const { exportJWK, generateKeyPair, SignJWT } = await import("jose");
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = crypto.randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  const now = env.now();
  const expMs = now + (durationMs(i.ttl ?? PULL_TOKEN_DEFAULT_TTL) ?? 0);
  const expirationTime = seconds(expMs);
  const identity = await client.identities.create(i.groupUid, {
    name: identityName(i.name, expirationTime),
    ...defined({ description: i.description }),
    staticKeys: {
      issuer: PULL_TOKEN_ISSUER,
      subject: PULL_TOKEN_SUBJECT,
      issuerKeys: JSON.stringify({ keys: [jwk] }),
      expirationTime,
      // Spec §5.6: a registry client's token names the registry host as its audience.
      audiences: [env.registryHost],
    },
  });
  let binding: RoleBinding;
  try {
    binding = await client.roleBindings.create(i.groupUid, { identityUid: identity.uid, roleUid });
  } catch (e) {
    // An identity nobody can sign for is useless: remove it rather than leave it behind.
    await client.identities.delete(identity.uid, { ignoreNotFound: true }).catch(() => undefined);
    throw e;
  }
  const password = await new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid, typ: "JWT" })
    .setIssuer(PULL_TOKEN_ISSUER)
    .setSubject(PULL_TOKEN_SUBJECT)
    .setAudience(env.registryHost)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expMs / 1000))
    .sign(privateKey);
  return { uid: identity.uid, identity, binding, password, registryHost: env.registryHost };
}

async function getPullToken(client: IrvClient, uid: string): Promise<PullTokenServer | undefined> {
  const identity = await client.identities.find(uid);
  if (!identity) return undefined;
  if (identity.staticKeys?.issuer !== PULL_TOKEN_ISSUER)
    throw new Error(
      `identity ${uid} is not a pull token (pull tokens are static-keys identities made by irv.registry.PullToken): adopt it as an irv.iam.Identity instead`,
    );
  return { uid, identity, binding: await bindingOf(client, identity) };
}

/**
 * `irv.registry.PullToken`: a registry pull credential as code. An identity whose credential only
 * this resource could sign (a `staticKeys` identity with a key pair made at the create, the private
 * key never kept), bound to a role in its group; `password` is a token signed with that key, valid
 * until `expirationTime`. A change of `ttl`, role or group replaces it, creating the new token
 * before deleting the old one; `rotateBefore` replaces one that expires within it. Name and
 * description change in place.
 *
 * @example
 * makeProvider(pullTokenKind, getClient, explain, env);
 */
export const pullTokenKind = defineKind({
  type: "PullToken",
  singular: "pull token",
  inputs: PullTokenInputs,
  inputKeys: ["groupUid", "name", "description", "ttl", "roleUid", "rotateBefore"],
  replaceKeys: ["groupUid", "ttl", "roleUid"],
  mutableKeys: ["name", "description", "rotateBefore"],
  // Left out, the role is the built-in registry.pull: the state's resolved uid is no change.
  defaultedByServer: ["roleUid"],
  writeOnly: ["ttl", "rotateBefore", "password", "dockerConfigJson"],
  secrets: ["password", "dockerConfigJson"],
  outputs: z.object({
    uid: z.string(),
    username: z.string(),
    identityName: z.string(),
    password: z.string().optional(),
    expirationTime: z.string(),
    dockerConfigJson: z.string().optional(),
    registryHost: z.string(),
    bindingUid: z.string().optional(),
    createTime: IdentitySchema.in.shape.createTime,
  }),
  // "720h" and "2592000s" are one ttl, and no ttl is the default one.
  comparable: ({ ttl, rotateBefore, ...p }: Props) => ({
    ...p,
    ttl: typeof ttl === "string" ? (durationMs(ttl) ?? ttl) : durationMs(PULL_TOKEN_DEFAULT_TTL),
    ...(typeof rotateBefore === "string" ? { rotateBefore: durationMs(rotateBefore) ?? rotateBefore } : {}),
  }),
  replaceWhen: (state, news, env) => {
    const within = typeof news.rotateBefore === "string" ? durationMs(news.rotateBefore) : undefined;
    const expires = typeof state.expirationTime === "string" ? Date.parse(state.expirationTime) : Number.NaN;
    if (within === undefined || Number.isNaN(expires)) return undefined;
    return expires - env.now() <= within ? "rotateBefore" : undefined;
  },
  create: createPullToken,
  get: getPullToken,
  update: async (client, uid, body, updateMask) => {
    // rotateBefore is the provider's: only name and description are the service's.
    const mask = updateMask.filter((k) => k === "name" || k === "description");
    if (mask.length > 0) {
      const current = await client.identities.get(uid);
      const stamp = STAMP.exec(current.name)?.[0] ?? "";
      const name = typeof body.name === "string" ? `${body.name}${stamp}` : undefined;
      await client.identities.update(uid, { ...body, ...defined({ name }) }, { updateMask: mask });
    }
    const found = await getPullToken(client, uid);
    if (!found) throw new Error(`pull token ${uid} is gone`);
    return found;
  },
  // The binding first: an identity still bound is refused, and a binding must never outlive it.
  delete: async (client, uid, state) => {
    const identity = await client.identities.find(uid);
    const bindings: string[] = typeof state.bindingUid === "string" ? [state.bindingUid] : [];
    if (identity) {
      for await (const b of client.roleBindings.listAll({ childrenOf: parentUidOf(uid) }))
        if (b.identity.uid === uid && !bindings.includes(b.uid)) bindings.push(b.uid);
    }
    for (const b of bindings) await client.roleBindings.delete(b, { ignoreNotFound: true });
    await client.identities.delete(uid, { ignoreNotFound: true });
  },
  inputsOf: (s: PullTokenServer) => ({
    groupUid: parentUidOf(s.uid),
    name: tokenName(s.identity.name),
    ...defined({ description: s.identity.description || undefined, roleUid: s.binding?.role.uid }),
  }),
  outputsOf: (s, inputs) => {
    const host = s.registryHost ?? s.identity.staticKeys?.audiences?.[0] ?? "";
    return {
      ...defined(inputs),
      // The state says which lifetime the token was made with, so a change of it is seen.
      ttl: inputs.ttl ?? PULL_TOKEN_DEFAULT_TTL,
      ...defined({
        name: tokenName(s.identity.name),
        description: s.identity.description || undefined,
        roleUid: s.binding?.role.uid,
      }),
      uid: s.uid,
      username: s.uid,
      identityName: s.identity.name,
      expirationTime: s.identity.staticKeys?.expirationTime ?? "",
      registryHost: host,
      ...defined({
        bindingUid: s.binding?.uid,
        password: s.password,
        dockerConfigJson: s.password === undefined ? undefined : dockerConfigJson(host, s.uid, s.password),
      }),
      createTime: s.identity.createTime,
    };
  },
});
