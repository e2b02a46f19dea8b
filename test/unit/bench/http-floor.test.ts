// The scale benchmark's HTTP floor (issue 47) is only a floor if it makes the request pulumi-irv
// makes: for each kind of the org-tree program and each operation the benchmark times (create,
// read, delete), pulumi-irv's dynamic provider and the floor's, both against the floor's server,
// send the same method and path, the same headers and a body of the same size. The server answers
// what pulumi-irv's client accepts as the emulator's answer, and both sides leave the same state.
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FloorRequest, HttpFloorServer } from "../../../bench/support/http-floor-server.ts";
import { startHttpFloorServer, VIEWER_DESCRIPTION } from "../../../bench/support/http-floor-server.ts";
import { BUILT_IN_ROLES } from "../../../emulator/auth/index.js";
import { install } from "../../../provider/runtime/index.js";

type Props = Record<string, unknown>;
interface CrudProvider {
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<unknown>;
  delete(id: string, props: Props): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "../../..");
const FLOOR_MODULE = path.join(root, "test", "e2e", "fixtures", "org-tree-program", "http-floor.js");
const floor = createRequire(import.meta.url)(FLOOR_MODULE) as { floorProvider: CrudProvider };

const TOKEN = "irv-admin-0123456789abcdef0123456789abcdef";
const ORG = "89abcdef0123456789abcdef0123456789abcdef";
const ROLE = "0123456789abcdef0123456789abcdef01234567";
const TYPES = ["Group", "Identity", "RoleBinding"] as const;

/** Inputs as the org-tree program declares them, given the uids created before. */
function inputsOf(type: (typeof TYPES)[number], uids: string[]): Props {
  const [group = "", identity = ""] = uids;
  if (type === "Group") return { parentUid: ORG, name: "t-g-007", description: "group 7" };
  if (type === "Identity")
    return {
      groupUid: group,
      name: "t-id-007",
      description: "identity 7",
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/t-007:ref:refs/heads/main",
      },
    };
  return { groupUid: group, identityUid: identity, roleUid: ROLE };
}

describe("the scale benchmark's HTTP floor", () => {
  let server: HttpFloorServer;
  let seen: FloorRequest[] = [];

  beforeAll(async () => {
    server = await startHttpFloorServer({ record: (r) => seen.push(r) });
    process.env.IRV_HTTP_FLOOR_URL = server.url;
    process.env.IRV_HTTP_FLOOR_TOKEN = TOKEN;
  });
  afterAll(async () => {
    delete process.env.IRV_HTTP_FLOOR_URL;
    delete process.env.IRV_HTTP_FLOOR_TOKEN;
    await server?.close();
  });

  /** pulumi-irv's dynamic provider of a type, against the floor's server. */
  const irv = (type: string) => {
    const config: Record<string, string> = { "irv:baseUrl": server.url, "irv:token": TOKEN };
    const p: Record<string, unknown> = {};
    install(p, type, { config: { get: (key: string) => config[key] } } as never);
    return p as unknown as CrudProvider;
  };

  /**
   * A group, an identity in it and a binding of it, created, read and deleted by one side's providers:
   * the requests they sent (the created uids as placeholders, without what differs by connection) and
   * what the state would hold.
   */
  const lifecycle = async (providerOf: (type: string) => CrudProvider) => {
    seen = [];
    const uids: string[] = [];
    const made: { id: string; outs: Props }[] = [];
    for (const type of TYPES) {
      const { id, outs } = await providerOf(type).create(inputsOf(type, uids));
      uids.push(id);
      made.push({ id, outs });
    }
    for (const [i, type] of TYPES.entries()) await providerOf(type).read(uids[i] ?? "", made[i]?.outs ?? {});
    for (const [i, type] of [...TYPES.entries()].reverse())
      await providerOf(type).delete(uids[i] ?? "", made[i]?.outs ?? {});
    // Longest first: a child's uid starts with its group's.
    const placeholders = (text: string) =>
      uids.reduceRight((t, uid, i) => t.replaceAll(uid, `<${TYPES[i]}>`), text);
    const requests = seen.map(({ headers, path: p, ...r }) => {
      const { host: _host, connection: _connection, ...rest } = headers;
      return { ...r, path: placeholders(p), headers: rest };
    });
    return { requests, made };
  };

  it("sends what pulumi-irv sends for each kind and step: method, path, headers, body size", async () => {
    const expected = await lifecycle(irv);
    expect(expected.requests.map((r) => r.method)).toEqual([
      "POST",
      "POST",
      "POST",
      "GET",
      "GET",
      "GET",
      "DELETE",
      "DELETE",
      "DELETE",
    ]);
    const floorSide = await lifecycle(() => floor.floorProvider);
    expect(floorSide.requests).toEqual(expected.requests);
  });

  // The engine logs every property of every provider call: a floor whose state were smaller or more
  // repetitive than pulumi-irv's would cost the engine less, and the ratio would charge pulumi-irv for it.
  it("leaves in the state what pulumi-irv leaves: the same ids and outputs, in keys and in length", async () => {
    const shape = (m: { id: string; outs: Props }[]) =>
      m.map(({ id, outs }) => ({
        id: id.length,
        keys: Object.keys(outs).sort(),
        bytes: JSON.stringify(outs).length,
      }));
    expect(shape((await lifecycle(() => floor.floorProvider)).made)).toEqual(
      shape((await lifecycle(irv)).made),
    );
  });

  it("describes the role as the emulator does", () => {
    expect(BUILT_IN_ROLES.find((r) => r.name === "viewer")?.description).toBe(VIEWER_DESCRIPTION);
  });
});
