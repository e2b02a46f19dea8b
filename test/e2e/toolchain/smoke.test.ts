// Smoke test of the toolchain itself: the Pulumi CLI, our Node.js language host and the dynamic-provider
// shim drive a tiny dynamic-resource program through its whole life cycle, and a policy pack runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigValue, TestStack } from "../harness/index.js";
import {
  createStack,
  diagnostics,
  fixtureDir,
  policyPacksRun,
  policyViolations,
  summary,
} from "../harness/index.js";

const THING = "pulumi-nodejs:dynamic/smoke:Thing";
const SECRET = "smoke-secret-token-5d1f";

describe("a dynamic-resource program on the real engine", () => {
  let stack: TestStack | undefined;
  const current = (): TestStack => {
    if (stack === undefined) throw new Error("stack not created");
    return stack;
  };

  beforeAll(async () => {
    stack = await createStack({
      program: fixtureDir("smoke-program"),
      config: { text: "hello", token: { value: SECRET, secret: true } },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
  });

  it("previews the resource and the stack as creates without creating anything", async () => {
    const result = await current().preview();
    expect(result.exitCode).toBe(0);
    expect(summary(result.events)?.resourceChanges).toMatchObject({ create: 2 });
    expect(await current().resources()).toEqual([]);
  });

  it("creates the resource on up and returns its outputs, secret config as a secret output", async () => {
    const result = await current().up();
    expect(summary(result.events)?.resourceChanges).toMatchObject({ create: 2 });
    expect(result.outputs).toEqual({ text: "hello", length: 5, thingId: "thing-5", token: SECRET });
    // The plugins sit next to `pulumi`, so the engine does not warn about picking them up from PATH.
    expect(diagnostics(result.events, "warning")).toEqual([]);

    const state = await current().exportState();
    const thing = state.deployment.resources?.find((r) => r.type === THING);
    expect(thing?.id).toBe("thing-5");
    expect(thing?.outputs).toMatchObject({ text: "hello", length: 5 });
    // The secret is stored encrypted: its plain text appears nowhere in the exported state.
    expect(JSON.stringify(state)).not.toContain(SECRET);
    // The harness reads the file backend's stack file rather than start the CLI: what it reads is what
    // `pulumi stack export` prints.
    const exported = await current().run(["stack", "export", "--stack", current().stackName]);
    expect(state).toEqual(JSON.parse(exported.stdout));
  });

  it("updates the resource in place when an input changes", async () => {
    await current().setConfig({ text: "hello world" });
    const result = await current().up();
    expect(summary(result.events)?.resourceChanges).toMatchObject({ update: 1, same: 1 });
    expect(result.outputs).toMatchObject({ text: "hello world", length: 11, thingId: "thing-5" });
  });

  it("refreshes without changes when the provider reads back the same values", async () => {
    const result = await current().refresh();
    expect(summary(result.events)?.resourceChanges).toEqual({ same: 2 });
    expect(result.outputs).toMatchObject({ text: "hello world", length: 11 });
  });

  it("destroys every resource", async () => {
    const result = await current().destroy();
    expect(summary(result.events)?.resourceChanges).toMatchObject({ delete: 2 });
    expect((await current().exportState()).deployment.resources ?? []).toEqual([]);
  });

  it("sets and removes config as `pulumi config set-all`/`rm-all` do: the CLI reads back the same values", async () => {
    // setConfig and removeConfig edit Pulumi.<stack>.yaml themselves rather than start the CLI; texts
    // a YAML reader could take for another type, an old-form key, another namespace, and a secret key
    // overwritten with plain text must all read back as the CLI's own set-all and rm-all leave them.
    const values: Record<string, ConfigValue> = {
      text: "3",
      flag: "true",
      yes: "yes",
      nothing: "null",
      tilde: "~",
      empty: "",
      day: "2026-11-29",
      lines: "one\ntwo\n",
      json: JSON.stringify({ a: [1, "x"], b: null }),
      padded: "  # not a comment ",
      quotes: `it's "quoted" \\ and: colon`,
      long: "word ".repeat(60),
      "irv:baseUrl": "http://127.0.0.1:1",
      "irv-smoke:config:legacy": "old form",
      token: "no longer secret",
      other: { value: "still-secret", secret: true },
    };
    const stack = current();
    const shown = async () =>
      JSON.parse(
        (await stack.run(["config", "--json", "--show-secrets", "--stack", stack.stackName])).stdout,
      );
    await stack.setConfig(values);
    const written = await shown();
    expect(written["irv-smoke:text"]).toEqual({ value: "3", secret: false });
    expect(written["irv-smoke:token"]).toEqual({ value: "no longer secret", secret: false });
    expect(written["irv-smoke:other"]).toEqual({ value: "still-secret", secret: true });
    // removeConfig edits the file too: the plain keys go, the secret stays.
    const plainKeys = Object.keys(values).filter((k) => k !== "other");
    await stack.removeConfig(...plainKeys);
    const removed = await shown();
    expect(removed).toEqual({ "irv-smoke:other": { value: "still-secret", secret: true } });
    await stack.removeConfig("other");

    // The same through the CLI.
    await stack.automation.setAllConfig(
      Object.fromEntries(
        Object.entries(values).map(([k, v]) => [
          k,
          typeof v === "string" ? { value: v, secret: false } : { value: v.value, secret: true },
        ]),
      ),
    );
    expect(written).toEqual(await shown());
    await stack.automation.removeAllConfig(plainKeys);
    expect(removed).toEqual(await shown());
  });
});

describe("a policy pack given with --policy-pack", () => {
  let stack: TestStack | undefined;
  const current = (): TestStack => {
    if (stack === undefined) throw new Error("stack not created");
    return stack;
  };

  beforeAll(async () => {
    stack = await createStack({
      program: fixtureDir("smoke-program"),
      config: { text: "hello", token: { value: SECRET, secret: true } },
      policyPacks: [fixtureDir("smoke-policy-pack")],
    });
  });

  afterAll(async () => {
    await stack?.dispose();
  });

  it("runs and lets a compliant program through", async () => {
    const result = await current().preview();
    expect(result.exitCode).toBe(0);
    expect(policyViolations(result.events)).toEqual([]);
    expect(policyPacksRun(result.events)).toEqual(["irv-smoke-policy"]);
  });

  it("fails the preview with the policy's message and a non-zero exit on a mandatory violation", async () => {
    await current().setConfig({ text: "forbidden" });
    const result = await current().preview({ allowFailure: true });
    expect(result.exitCode).not.toBe(0);
    const violations = policyViolations(result.events);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({
      policyName: "no-forbidden-text",
      policyPackName: "irv-smoke-policy",
      enforcementLevel: "mandatory",
    });
    expect(violations[0]?.message).toContain("Thing text 'forbidden' is not allowed by the smoke policy.");
    expect(result.stdout).toContain("Thing text 'forbidden' is not allowed by the smoke policy.");
  });
});
