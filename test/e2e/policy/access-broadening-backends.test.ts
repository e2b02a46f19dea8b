// The access-broadening gate with no `before` file on both state backends: the pack reads the
// stack's state itself through the `pulumi` running it (`pulumi stack export`), so it works wherever
// the CLI keeps state — the file backend and the PostgreSQL DIY backend alike. An unchanged stack
// passes; owner granted in the tree is blocked.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { policyViolations } from "../harness/index.js";
import { useOrgTreeStack } from "../support/org-tree.js";
import { STATE_BACKENDS } from "../support/state-backend.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PACK = path.join(root, "node_modules", "pulumi-irv-policy");

describe.each(STATE_BACKENDS)("access-broadening on the %s backend, with no policy config", (backend) => {
  // Two identities, each bound viewer in its group; with roles "viewer,owner" a third binding gives
  // the first identity owner in its group: it gains the rest of owner there.
  const t = useOrgTreeStack({ groups: 2, identities: 2, bindings: 2, prefix: "gate" }, {}, backend);

  const gate = async () => {
    const result = await t.stack.preview({ policyPacks: [PACK], allowFailure: true });
    return {
      exitCode: result.exitCode,
      violations: policyViolations(result.events).map((v) => `${v.policyName}: ${v.message}`),
    };
  };

  it("passes the unchanged stack and blocks owner granted in the tree", async () => {
    await t.stack.setConfig({ roles: "viewer,owner" });
    await t.stack.up();
    expect(await gate()).toEqual({ exitCode: 0, violations: [] });
    await t.stack.setConfig({ bindings: "3" });
    const blocked = await gate();
    expect(blocked.exitCode).not.toBe(0);
    expect(blocked.violations).toEqual([
      expect.stringMatching(
        /^access-broadening: [\s\S]*\ngate-id-000 gained .* on \/gate-g-000 through gate-b-002 → owner \[owner-equivalent/,
      ),
    ]);
  });
});
