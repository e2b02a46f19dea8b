// Model-based test: random sequences of creates, updates (with and without masks), deletes, gets and
// paged lists of groups, identities, custom roles, identity providers and account associations,
// each checked against a small in-memory model of the spec's rules. Every run works in a fresh
// "arena" group of one shared emulator.
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BUILT_IN_ROLE_NAMES, GROUP_NAME_PATTERN } from "../../../sdk/index.js";
import type { Answer, ErrorBody, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

// The built-in viewer, every identity provider's default role (REQUIRED, identity_providers.proto).
let viewerUid = "";
type Kind = "groups" | "identities" | "roles" | "identityProviders" | "accountAssociations";
// What a create of each kind needs besides name and description.
const REQUIRED: Record<Kind, (name: string) => Record<string, unknown>> = {
  groups: () => ({}),
  identities: (name) => ({ claimMatch: { issuer: "https://i", subject: name } }),
  roles: () => ({ capabilities: ["CAP_IAM_GROUPS_LIST"] }),
  identityProviders: () => ({
    defaultRole: viewerUid,
    oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
  }),
  accountAssociations: () => ({ amazon: { account: "123456789012" } }),
};
const BUILT_IN = new Set<string>(BUILT_IN_ROLE_NAMES);
interface Entry {
  kind: Kind;
  uid: string;
  parent: string;
  name: string;
  description?: string | undefined;
  seq: number;
  createTime: string;
  updateTime: string;
}
interface Model {
  arena: Entry;
  entries: Entry[];
  seq: number;
}
interface Real {
  emu: TestEmulator;
}
type Resource = Record<string, unknown> & {
  uid: string;
  name: string;
  createTime: string;
  updateTime: string;
};

let emu: TestEmulator;
let arenas = 0;
beforeAll(async () => {
  emu = await startTestEmulator();
  viewerUid = await emu.roleUid("viewer");
});
afterAll(() => emu.close());

const groupsOf = (m: Model) => [m.arena, ...m.entries.filter((e) => e.kind === "groups")];
const at = <T>(list: T[], ix: number): T | undefined =>
  list.length === 0 ? undefined : list[ix % list.length];

function expectCode(a: Answer<ErrorBody>, code: number, what: string) {
  expect(a.status === 200 ? 0 : a.body.code, `${what}: ${a.text}`).toBe(code);
}

function expectResource(body: Resource, e: Entry) {
  expect(body.uid).toBe(e.uid);
  expect(body.name).toBe(e.name);
  // A proto3 string: "" and absent are the same value (the gateway writes an unset one as "").
  expect(body.description || undefined).toBe(e.description || undefined);
  // Role uids are flat: their group is in parentUid.
  // The published Role carries no parent (iam/v2beta1/roles.proto:142-172).
  if (e.kind === "roles") expect(body).not.toHaveProperty("parentUid");
  // A group's account association has the group's uid (one per group).
  else if (e.kind === "accountAssociations") expect(body.uid).toBe(e.parent);
  else expect(body.uid.startsWith(`${e.parent}/`)).toBe(true);
}

class Create implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly parentIx: number,
    readonly name: string,
    readonly description: string | undefined,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const parent = at(groupsOf(m), this.parentIx) as Entry;
    const body = { name: this.name, description: this.description, ...REQUIRED[this.kind](this.name) };
    const a = await r.emu.call<Resource & ErrorBody>("POST", `/iam/v2beta1/${this.kind}/${parent.uid}`, {
      body,
    });
    const invalid = this.name === "" || (this.kind === "groups" && !GROUP_NAME_PATTERN.test(this.name));
    const clash = m.entries.some(
      (e) =>
        e.kind === this.kind &&
        e.parent === parent.uid &&
        (e.name === this.name || this.kind === "accountAssociations"),
    );
    expectCode(a, invalid ? 3 : clash ? 6 : 0, this.toString());
    if (a.status !== 200) return;
    const e: Entry = {
      kind: this.kind,
      uid: a.body.uid,
      parent: parent.uid,
      name: this.name,
      description: this.description,
      seq: m.seq++,
      createTime: a.body.createTime,
      updateTime: a.body.updateTime,
    };
    expectResource(a.body, e);
    m.entries.push(e);
  }
  toString = () => `create ${this.kind} ${JSON.stringify(this.name)} under #${this.parentIx}`;
}

class Update implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly ix: number,
    readonly body: { name?: string | null; description?: string | null },
    readonly mask: string | undefined,
  ) {}
  check = (m: Readonly<Model>) => m.entries.some((e) => e.kind === this.kind);
  async run(m: Model, r: Real) {
    const target = at(
      m.entries.filter((e) => e.kind === this.kind),
      this.ix,
    ) as Entry;
    const a = await r.emu.call<Resource & ErrorBody>("PATCH", `/iam/v2beta1/${this.kind}/${target.uid}`, {
      body: this.body,
      query: { updateMask: this.mask },
    });
    const paths = this.mask === undefined ? Object.keys(this.body) : this.mask.split(",");
    const next = { ...target };
    let expected = 0;
    for (const p of paths as ("name" | "description")[]) {
      const v = this.body[p];
      if (v === undefined || v === null) {
        if (p === "name") expected = 3;
        else next.description = undefined;
      } else next[p] = v;
    }
    if (
      expected === 0 &&
      (next.name === "" || (this.kind === "groups" && !GROUP_NAME_PATTERN.test(next.name)))
    ) {
      expected = 3;
    }
    if (
      expected === 0 &&
      this.kind !== "accountAssociations" &&
      m.entries.some(
        (e) => e !== target && e.kind === this.kind && e.parent === target.parent && e.name === next.name,
      )
    ) {
      expected = 6;
    }
    expectCode(a, expected, this.toString());
    if (a.status !== 200) return;
    expectResource(a.body, next);
    expect(a.body.createTime).toBe(target.createTime);
    expect(Date.parse(a.body.updateTime)).toBeGreaterThan(Date.parse(target.updateTime));
    Object.assign(target, next, { updateTime: a.body.updateTime });
  }
  toString = () => `update ${this.kind} #${this.ix} ${JSON.stringify(this.body)} mask=${this.mask}`;
}

class Delete implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly ix: number,
  ) {}
  check = (m: Readonly<Model>) => m.entries.some((e) => e.kind === this.kind);
  async run(m: Model, r: Real) {
    const target = at(
      m.entries.filter((e) => e.kind === this.kind),
      this.ix,
    ) as Entry;
    const a = await r.emu.call<ErrorBody>("DELETE", `/iam/v2beta1/${this.kind}/${target.uid}`);
    const children = m.entries.filter((e) => e.parent === target.uid);
    expectCode(a, this.kind === "groups" && children.length > 0 ? 9 : 0, this.toString());
    if (a.status === 200) {
      expect(a.text).toBe("");
      m.entries.splice(m.entries.indexOf(target), 1);
    } else {
      const v = detail<{ violations: { subject: string }[] }>(a.body, "PreconditionFailure");
      expect(v.violations.map((x) => x.subject).sort()).toEqual(children.map((c) => c.uid).sort());
    }
  }
  toString = () => `delete ${this.kind} #${this.ix}`;
}

class Get implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly ix: number,
    readonly ghost: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const list = this.kind === "groups" ? groupsOf(m) : m.entries.filter((e) => e.kind === this.kind);
    const target = at(list, this.ix);
    if (this.ghost || target === undefined) {
      const a = await r.emu.call<ErrorBody>(
        "GET",
        `/iam/v2beta1/${this.kind}/${m.arena.uid}/ffffffffffffffff`,
      );
      expectCode(a, 5, this.toString());
      return;
    }
    const a = await r.emu.call<Resource & ErrorBody>("GET", `/iam/v2beta1/${this.kind}/${target.uid}`);
    expectCode(a, 0, this.toString());
    expectResource(a.body, target);
    expect(a.body.updateTime).toBe(target.updateTime);
  }
  toString = () => `get ${this.kind} #${this.ix}${this.ghost ? " (ghost)" : ""}`;
}

class List implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly parentIx: number,
    readonly scope: "children" | "descendants",
    readonly order: "name" | "name desc" | "created_at" | "created_at desc" | undefined,
    readonly pageSize: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const parent = at(groupsOf(m), this.parentIx) as Entry;
    const filter = this.scope === "children" ? "uidp.children_of" : "uidp.descendants_of";
    const uids: string[] = [];
    let token: string | undefined;
    let total: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await r.emu.ok<Record<string, unknown> & { nextPageToken?: string; totalCount: string }>(
        "GET",
        `/iam/v2beta1/${this.kind}`,
        {
          query: { [filter]: parent.uid, order_by: this.order, page_size: this.pageSize, page_token: token },
        },
      );
      // Built-in roles are in every scope; the model holds the custom ones.
      const items = (page[this.kind] as { uid: string; name: string }[]).filter(
        (x) => this.kind !== "roles" || !BUILT_IN.has(x.name),
      );
      uids.push(...items.map((x) => x.uid));
      total = String(Number(page.totalCount) - (this.kind === "roles" ? BUILT_IN.size : 0));
      token = page.nextPageToken;
      if (token === undefined) break;
    }
    const matching = m.entries.filter(
      (e) =>
        e.kind === this.kind &&
        (this.scope === "children"
          ? e.parent === parent.uid
          : // A custom role or an association is below a group when its own group is that group or
            // below it.
            (e.kind === "roles" || e.kind === "accountAssociations" ? `${e.parent}/` : e.uid).startsWith(
              `${parent.uid}/`,
            )),
    );
    const desc = this.order?.endsWith("desc") === true;
    const sorted = [...matching].sort((a, b) =>
      this.order?.startsWith("name") === true
        ? a.name < b.name
          ? -1
          : a.name > b.name
            ? 1
            : a.uid < b.uid
              ? -1
              : 1
        : a.seq - b.seq,
    );
    if (desc) sorted.reverse();
    expect(uids, this.toString()).toEqual(sorted.map((e) => e.uid));
    expect(total).toBe(String(matching.length));
  }
  toString = () =>
    `list ${this.kind} ${this.scope} of #${this.parentIx} order=${this.order} size=${this.pageSize}`;
}

const kind = fc.constantFrom<Kind>(
  "groups",
  "identities",
  "roles",
  "identityProviders",
  "accountAssociations",
);
const name = fc.constantFrom("alpha", "beta", "gamma", "Bad!", "");
const description = fc.option(fc.constantFrom("one", "two"), { nil: undefined });
const ix = fc.nat(20);

const commands = [
  fc.tuple(kind, ix, name, description).map(([k, p, n, d]) => new Create(k, p, n, d)),
  fc.tuple(kind, ix, name, description).map(([k, p, n, d]) => new Create(k, p, n, d)),
  fc
    .tuple(
      kind,
      ix,
      fc.record(
        {
          name: fc.option(name, { nil: null }),
          description: fc.option(fc.constantFrom("x", "y"), { nil: null }),
        },
        { requiredKeys: [] },
      ),
      fc.constantFrom(undefined, "description", "name", "name,description"),
    )
    .map(([k, i, b, mask]) => new Update(k, i, b, mask)),
  fc.tuple(kind, ix).map(([k, i]) => new Delete(k, i)),
  fc.tuple(kind, ix, fc.boolean()).map(([k, i, g]) => new Get(k, i, g)),
  fc
    .tuple(
      kind,
      ix,
      fc.constantFrom<"children" | "descendants">("children", "descendants"),
      fc.constantFrom(undefined, "name", "name desc", "created_at", "created_at desc"),
      fc.integer({ min: 1, max: 4 }),
    )
    .map(([k, p, s, o, size]) => new List(k, p, s, o, size)),
];

test("random sequences of operations on every named IAM kind agree with the model of the spec", async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: "max" }), async (cmds) => {
      const arenaGroup = await emu.group(`arena-${++arenas}`);
      const arena: Entry = {
        kind: "groups",
        uid: arenaGroup.uid,
        parent: emu.orgUid,
        name: arenaGroup.name,
        seq: -1,
        createTime: arenaGroup.createTime,
        updateTime: arenaGroup.updateTime,
      };
      await fc.asyncModelRun(() => ({ model: { arena, entries: [], seq: 0 }, real: { emu } }), cmds);
    }),
    { numRuns: 150 },
  );
  // The runs did talk to the emulator, a lot: every kind of operation and every answer class.
  const { requests } = emu.stats();
  expect(requests["POST /iam/v2beta1/groups/*"]).toBeGreaterThan(100);
  expect(requests["PATCH /iam/v2beta1/identities/*"]).toBeGreaterThan(10);
  expect(requests["DELETE /iam/v2beta1/groups/*"]).toBeGreaterThan(10);
  expect(requests["GET /iam/v2beta1/identities"]).toBeGreaterThan(10);
  expect(requests["PATCH /iam/v2beta1/roles/*"]).toBeGreaterThan(10);
  expect(requests["POST /iam/v2beta1/identityProviders/*"]).toBeGreaterThan(10);
  expect(requests["DELETE /iam/v2beta1/accountAssociations/*"]).toBeGreaterThan(10);
}, 60_000);
