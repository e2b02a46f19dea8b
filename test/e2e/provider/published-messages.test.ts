// The parts of the published messages issue 38 added, on the real engine against a fresh emulator,
// from a TypeScript program (run by Node's type stripping; type-checked here against the package's
// declarations): a role binding's identity changed in place (one update step in the preview, one
// PATCH on `up`, the same binding), a public PKCE-only identity provider, a correlationRule change
// that replaces it, and advisory events read typed ("fixed, and in which version?").
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { resourceRoutes, seedAdvisory, startTestEmulator } from "../support/irv-emulator.js";
import { previewChanges } from "../support/preview-steps.js";

type Spec = { identity: "alpha" | "beta"; correlationRule?: string };
type Outputs = {
  bindingUid: string;
  boundIdentity: string;
  idpUid: string;
  idpOidc: { pkceEnabled?: boolean; groupsClaim?: string };
  fixedIn: string[];
  eventKinds: string[];
};

describe("the published messages whole, from a TypeScript program", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let out: Outputs;
  const spec: Spec = { identity: "alpha" };

  const declare = async () => {
    await stack.setConfig({ spec: JSON.stringify(spec) });
    await irv.resetStats();
  };
  const up = async () => {
    await irv.resetStats();
    out = (await stack.up()).outputs as unknown as Outputs;
  };

  beforeAll(async () => {
    irv = await startTestEmulator();
    await seedAdvisory(irv, irv.emulator.orgUid, {
      artifactName: "log4j",
      aliases: ["CVE-2021-44228"],
      events: [
        { detection: { scanv1: { scanner: "grype", componentVersion: "2.14.1" } } },
        {
          falsePositiveDetermination: {
            type: "TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH",
            note: "JNDI unused",
          },
        },
        {
          fixed: { fixedVersion: "2.15.0-r0", note: "upstream 2.15.0" },
          reviewState: "REVIEW_STATE_APPROVED",
        },
        { patched: { patchedVersions: ["2.14.1-r1"], note: "JndiLookup removed" } },
      ],
    });
    stack = await createStack({
      program: fixtureDir("published-messages-program"),
      config: { ...irv.config, orgUid: irv.emulator.orgUid, spec: JSON.stringify(spec) },
    });
    await up();
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("type-checks: the lookup's events, the identity provider's OIDC settings and the binding are typed", () => {
    const file = path.join(fixtureDir("published-messages-program"), "index.ts");
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(errors).toEqual([]);
  });

  it("reads advisory events typed: the fixed version, the patched versions and every event's kind", () => {
    expect(out.fixedIn).toEqual([
      "log4j CVE-2021-44228 fixed in 2.15.0-r0 (upstream 2.15.0)",
      "log4j patched in 2.14.1-r1",
    ]);
    expect(out.eventKinds).toEqual([
      "detection",
      "falsePositive:TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH",
      "fixed",
      "patched",
    ]);
  });

  it("declares a public PKCE-only identity provider: no secret sent or stored", async () => {
    expect(out.idpOidc).toEqual({ pkceEnabled: true, groupsClaim: "groups" });
    const idp = await irv.admin.identityProviders.get(out.idpUid);
    expect(idp.oidc).toMatchObject({ pkceEnabled: true, groupsClaim: "groups" });
    const state = JSON.stringify(await stack.exportState());
    expect(state).not.toContain("clientSecret");
  });

  it("changes a binding's identity in place: one update step in the preview, one PATCH on up, the same binding", async () => {
    const before = out.bindingUid;
    spec.identity = "beta";
    await declare();
    expect(await previewChanges(stack)).toEqual(["update binding [identityUid]"]);
    await up();
    const stats = await irv.stats();
    // The advisories lookup reads its list on every run: not the binding's.
    const { "GET /vulnerabilities/v2/advisories": _lookup, ...routes } = resourceRoutes(stats.requests);
    expect(routes).toEqual({ "PATCH /iam/v2/roleBindings/*": 1 });
    expect(stats.updateMasks).toEqual({ identity_uid: 1 });
    expect(out.bindingUid).toBe(before);
    expect(out.boundIdentity).toBe("beta");
  });

  it("replaces the identity provider when its correlationRule changes", async () => {
    const before = out.idpUid;
    spec.correlationRule = "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID";
    await declare();
    expect(await previewChanges(stack)).toEqual(["replace public-cli [oidc]"]);
    await up();
    expect(out.idpUid).not.toBe(before);
    expect((await irv.admin.identityProviders.get(out.idpUid)).oidc.correlationRule).toBe(
      "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
    );
    expect(await irv.admin.identityProviders.find(before)).toBeUndefined();
    expect(await previewChanges(stack)).toEqual([]);
  });
});
