// The scale benchmark's HTTP floor (issue 47) is only a floor if it makes the request pulumi-irv
// makes: for each kind of the org-tree program and each operation the benchmark times (create,
// read, delete), pulumi-irv's dynamic provider and the floor's, both against the floor's server,
// send the same method and path, the same headers and a body of the same size. And the server
// answers what pulumi-irv's client accepts as the emulator's answer.
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FloorRequest, HttpFloorServer } from "../../../bench/support/http-floor-server.ts";
import { startHttpFloorServer } from "../../../bench/support/http-floor-server.ts";
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
const GROUP = `${ORG}/0011223344556677`;
const IDENTITY = `${GROUP}/8899aabbccddeeff`;
const ROLE = "0123456789abcdef0123456789abcdef01234567";

/** Inputs as the org-tree program declares them (the uids of the created objects known). */
const KINDS: { type: string; inputs: Props; uid: string }[] = [
  { type: "Group", inputs: { parentUid: ORG, name: "t-g-007", description: "group 7" }, uid: GROUP },
  {
    type: "Identity",
    inputs: {
      groupUid: GROUP,
      name: "t-id-007",
      description: "identity 7",
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/t-007:ref:refs/heads/main",
      },
    },
    uid: IDENTITY,
  },
  {
    type: "RoleBinding",
    inputs: { groupUid: GROUP, identityUid: IDENTITY, roleUid: ROLE },
    uid: `${GROUP}/fedcba9876543210`,
  },
];

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

  /** The requests one provider makes for create, read and delete, without what differs by connection. */
  const requestsOf = async (provider: CrudProvider, inputs: Props, uid: string) => {
    seen = [];
    await provider.create(inputs);
    const props = { ...inputs, uid };
    await provider.read(uid, props);
    await provider.delete(uid, props);
    return seen.map(({ headers, ...r }) => {
      const { host: _host, connection: _connection, ...rest } = headers;
      return { ...r, headers: rest };
    });
  };

  it.each(KINDS)("sends what pulumi-irv sends for a $type: method, path, headers, body size", async (k) => {
    const irv: Record<string, unknown> = {};
    const config: Record<string, string> = { "irv:baseUrl": server.url, "irv:token": TOKEN };
    install(irv, k.type, { config: { get: (key: string) => config[key] } } as never);
    const expected = await requestsOf(irv as unknown as CrudProvider, k.inputs, k.uid);
    expect(expected.map((r) => r.method)).toEqual(["POST", "GET", "DELETE"]);
    expect(await requestsOf(floor.floorProvider, k.inputs, k.uid)).toEqual(expected);
  });
});
