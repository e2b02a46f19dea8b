// Shared helpers of the emulator's integration tests: a started emulator, a raw HTTP caller that
// returns status, headers and parsed body, and callers with roles obtained through the real STS flow.
import { Agent, fetch } from "undici";
import type { EmulatorHandle, EmulatorOptions } from "../../../emulator/index.js";
import { startEmulator } from "../../../emulator/index.js";

/** One answer of the emulator. */
export interface Answer<T = unknown> {
  status: number;
  headers: { get(name: string): string | null };
  /** The parsed JSON body (undefined when the body is empty). */
  body: T;
  text: string;
}

/** Options of one raw call. */
export interface CallOptions {
  token?: string | undefined;
  body?: unknown;
  /** A raw body, sent as is (malformed-input tests). */
  rawBody?: string | undefined;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
}

/** An error body of the emulator. */
export interface ErrorBody {
  code: number;
  message: string;
  details: ({ "@type": string } & Record<string, unknown>)[];
}

/** A running emulator with helpers bound to it. */
export interface TestEmulator extends EmulatorHandle {
  /** A raw call; with the admin token unless `token` is given (`""`: no Authorization header). */
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** A call that must answer 200; returns the body. */
  ok<T = Record<string, unknown>>(method: string, path: string, options?: CallOptions): Promise<T>;
  /** Creates a group under `parent` (default: the root) as admin. */
  group(name: string, parent?: string, description?: string): Promise<Group>;
  /** Creates an identity in `groupUid`, matched by the local issuer and `subject`. */
  identity(groupUid: string, name: string, subject?: string): Promise<Identity>;
  /** The uid of a role by name. */
  roleUid(name: string): Promise<string>;
  /** An API token for a fresh identity bound to `role` on `groupUid`, through the STS. */
  tokenWithRole(groupUid: string, role: string, identityGroup?: string): Promise<string>;
  /** A workload token of the local issuer for `subject`, through `POST {issuerUrl}/token`. */
  workloadToken(subject: string, audience?: string): Promise<string>;
  /** Exchanges a workload token for an API token through the STS. */
  exchange(workloadToken: string, identityUid: string, aud?: string): Promise<Answer<ExchangeBody>>;
}

/** The answer of the STS: a token, or an error. */
export type ExchangeBody = { token: string } & ErrorBody;

/** A group as the tests read it. */
export interface Group {
  uid: string;
  name: string;
  description?: string;
  resourceLimits: Record<string, unknown>;
  verified: boolean;
  createTime: string;
  updateTime: string;
}

/** An identity as the tests read it. */
export interface Identity {
  uid: string;
  name: string;
  description?: string;
  claimMatch: { issuer: string; subject: string };
  lastSeenTime: string;
  createTime: string;
  updateTime: string;
}

let counter = 0;

/**
 * Starts an emulator on a free loopback port with helpers for raw calls.
 *
 * @example
 * const emu = await startTestEmulator();
 * const g = await emu.group("platform");
 */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({ host: "127.0.0.1", port: 0, ...options });
  // One connection pool per emulator: a restarted emulator on the same port never sees sockets
  // pooled for its predecessor.
  const agent = new Agent();
  const call = async <T>(method: string, path: string, o: CallOptions = {}): Promise<Answer<T>> => {
    const url = new URL(path.startsWith("http") ? path : `${emu.baseUrl}${path}`);
    for (const [k, v] of Object.entries(o.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...o.headers };
    const token = o.token ?? emu.adminToken;
    if (token !== "") headers.authorization = `Bearer ${token}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(url, {
      method,
      headers,
      dispatcher: agent,
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.text();
    let parsed: unknown;
    if (text !== "") {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  const ok = async <T>(method: string, path: string, o?: CallOptions): Promise<T> => {
    const a = await call<T>(method, path, o);
    if (a.status !== 200) throw new Error(`${method} ${path}: HTTP ${a.status} ${a.text}`);
    return a.body;
  };
  const t: TestEmulator = {
    ...emu,
    close: async () => {
      await agent.close();
      await emu.close();
    },
    call,
    ok,
    group: (name, parent = emu.orgUid, description) =>
      ok<Group>("POST", `/iam/v2beta1/groups/${parent}`, {
        body: description === undefined ? { name } : { name, description },
      }),
    identity: (groupUid, name, subject = `subject-${++counter}-${name}`) =>
      ok<Identity>("POST", `/iam/v2beta1/identities/${groupUid}`, {
        body: { name, claimMatch: { issuer: emu.issuerUrl, subject } },
      }),
    roleUid: async (name) => {
      const page = await ok<{ roles: { uid: string }[] }>("GET", "/iam/v2beta1/roles", { query: { name } });
      const role = page.roles[0];
      if (role === undefined) throw new Error(`no role ${name}`);
      return role.uid;
    },
    workloadToken: async (subject, audience) => {
      const r = await ok<{ token: string }>("POST", `${emu.issuerUrl}/token`, {
        token: "",
        body: audience === undefined ? { subject } : { subject, audience },
      });
      return r.token;
    },
    exchange: (workloadToken, identityUid, aud = emu.baseUrl) =>
      call<ExchangeBody>("GET", `${emu.authUrl}/sts/exchange`, {
        token: workloadToken,
        query: { aud, identity: identityUid },
      }),
    tokenWithRole: async (groupUid, role, identityGroup = groupUid) => {
      const subject = `workload-${++counter}`;
      const id = await t.identity(identityGroup, `id-${counter}`, subject);
      await ok("POST", `/iam/v2beta1/roleBindings/${groupUid}`, {
        body: { identityUid: id.uid, roleUid: await t.roleUid(role) },
      });
      const exchanged = await t.exchange(await t.workloadToken(subject), id.uid);
      if (exchanged.status !== 200) throw new Error(`exchange failed: ${exchanged.text}`);
      return exchanged.body.token;
    },
  };
  return t;
}

/**
 * The detail of an error body whose `@type` ends in `type`.
 *
 * @example
 * detail(body, "BadRequest").fieldViolations;
 */
export function detail<T = Record<string, unknown>>(body: ErrorBody, type: string): T {
  const d = body.details.find((x) => x["@type"].endsWith(`.${type}`));
  if (d === undefined) throw new Error(`no ${type} detail in ${JSON.stringify(body)}`);
  return d as unknown as T;
}

/** RFC 3339 UTC with milliseconds and Z. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
