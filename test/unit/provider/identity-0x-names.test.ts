// What `pulumi preview` says to a TypeScript program that still writes 0.x's `static:` on an
// identity. Regression (issue 34): the Identity class dropped the key, so the provider's check saw no
// variant and said only "exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal is
// required … got none" instead of naming `staticKeys` as docs/migrating.md promises.
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import * as irv from "../../../provider/index.js";
import { identityKind, makeProvider } from "../../../provider/runtime/index.js";
import type { IrvClient } from "../../../sdk/index.js";

const declared: Record<string, unknown>[] = [];
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      declared.push(args.inputs as Record<string, unknown>);
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: (args) => args.inputs,
  },
  "project",
  "stack",
  false,
);

const G = "0123456789abcdef0123456789abcdef01234567/0123456789abcdef";
const noClient = (): IrvClient => {
  throw new Error("check must not call the API");
};

describe("an identity declared with 0.x's static", () => {
  it("reaches the provider's check, which names staticKeys and the migration guide", async () => {
    const legacy = {
      issuer: "https://issuer.example",
      subject: "ci",
      issuerKeys: "{}",
      expiration: "2030-01-01T00:00:00Z",
    };
    const args = { groupUid: G, static: legacy } as irv.iam.IdentityArgs;
    const id = new irv.iam.Identity("legacy", args);
    await new Promise<void>((resolve) => id.urn.apply(() => resolve()));
    const inputs = declared.find((i) => i.name === "legacy");
    expect(inputs?.static).toEqual(legacy);

    const { failures } = await makeProvider(identityKind, noClient).check(
      {},
      { groupUid: G, name: "legacy", static: legacy },
    );
    expect(failures).toEqual([
      {
        property: "static",
        reason: expect.stringContaining(
          'static was renamed staticKeys, the published API\'s name (its expiration is now expirationTime, optional): see "Migrating from 0.x" in docs/migrating.md',
        ),
      },
    ]);
    expect(JSON.stringify(failures)).not.toContain("got none");
  });

  it("a program without it passes nothing extra", async () => {
    const id = new irv.iam.Identity("modern", {
      groupUid: G,
      claimMatch: { issuer: "https://issuer.example", subject: "ci" },
    });
    await new Promise<void>((resolve) => id.urn.apply(() => resolve()));
    expect(Object.keys(declared.find((i) => i.name === "modern") ?? {})).not.toContain("static");
  });
});
