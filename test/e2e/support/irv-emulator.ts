// The emulator as the provider e2e tests use it: one per test file, an admin client, and the
// request counters of its control API.
import type { EmulatorHandle } from "../../../emulator/index.js";
import { startEmulator } from "../../../emulator/index.js";
import { IrvClient } from "../../../sdk/index.js";
import type { ConfigValue } from "../harness/index.js";

/** Request counts by route pattern, from `GET /_emulator/stats`. */
export interface EmulatorStats {
  total: number;
  requests: Record<string, number>;
  updateMasks?: Record<string, number>;
  /** Requests the rate limit refused (429), counted in `total` too. */
  rateLimited?: number;
}

/** A running emulator plus what tests need around it. */
export interface TestEmulator {
  emulator: EmulatorHandle;
  /** Client with the admin token (owner of the root org). */
  admin: IrvClient;
  /** Stack config pointing a program at this emulator with the admin token (a secret). */
  config: Record<string, ConfigValue>;
  stats(): Promise<EmulatorStats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts an in-memory emulator on a free loopback port.
 *
 * @example
 * const irv = await startTestEmulator();
 * const stack = await createStack({ program, config: { ...irv.config, orgUid: irv.emulator.orgUid } });
 */
export async function startTestEmulator(
  options: Parameters<typeof startEmulator>[0] = {},
): Promise<TestEmulator> {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, ...options });
  const admin = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  const control = async (method: string, path: string) => {
    const res = await fetch(`${emulator.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${emulator.adminToken}` },
    });
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  return {
    emulator,
    admin,
    config: {
      "irv:baseUrl": emulator.baseUrl,
      "irv:authUrl": emulator.authUrl,
      "irv:token": { value: emulator.adminToken, secret: true },
      orgUid: emulator.orgUid,
    },
    stats: () => control("GET", "/_emulator/stats") as Promise<EmulatorStats>,
    resetStats: async () => {
      await control("POST", "/_emulator/stats/reset");
    },
    close: async () => {
      await admin.close();
      await emulator.close();
    },
  };
}

/**
 * Seeds a repo under a group through the control API.
 *
 * @example
 * await seedRepo(irv, groupUid, "app");
 */
export async function seedRepo(t: TestEmulator, parentUid: string, name: string): Promise<{ uid: string }> {
  const res = await fetch(`${t.emulator.baseUrl}/_emulator/repos`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.emulator.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ parentUid, name }),
  });
  if (!res.ok) throw new Error(`seeding repo: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as { uid: string };
}

/**
 * The fields of a seeded advisory: the published `Advisory`'s (all optional; `advisoryId` is
 * generated when absent).
 *
 * @example
 * const fields: AdvisorySeed = { aliases: ["CVE-2021-44228"], artifactName: "log4j" };
 */
export interface AdvisorySeed {
  advisoryId?: string;
  author?: string;
  artifactName?: string;
  artifactType?: string;
  artifactArchitecture?: string;
  componentName?: string;
  componentLocation?: string;
  componentType?: string;
  aliases?: string[];
  legacyAdvisoryId?: string;
  severities?: { type: string; score?: string }[];
  /** Each with exactly one published kind: `{ fixed: { fixedVersion, note } }`, `{ patched: … }`… */
  events?: Record<string, unknown>[];
}

/**
 * Seeds an advisory under a group through the control API.
 *
 * @example
 * await seedAdvisory(irv, orgUid, {
 *   aliases: ["CVE-2026-0001"],
 *   severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
 * });
 */
export async function seedAdvisory(
  t: TestEmulator,
  parentUid: string,
  fields: AdvisorySeed,
): Promise<{ uid: string; advisoryId: string }> {
  const res = await fetch(`${t.emulator.baseUrl}/_emulator/advisories`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.emulator.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ parentUid, ...fields }),
  });
  if (!res.ok) throw new Error(`seeding advisory: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as { uid: string; advisoryId: string };
}

/** The route of the role lists the `getRole` data source makes (every program run that uses it). */
export const DATA_SOURCE_ROUTE = "GET /iam/v2/roles";

/**
 * The request counts of the resources under test: without the role lists of the `getRole` data
 * source. Only that exact route is left out: a custom role's own reads (`GET …/roles/*`) count.
 *
 * @example
 * expect(resourceRoutes((await irv.stats()).requests)).toEqual({ "PATCH /iam/v2/groups/*": 1 });
 */
export function resourceRoutes(requests: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(requests).filter(([route]) => route !== DATA_SOURCE_ROUTE));
}
