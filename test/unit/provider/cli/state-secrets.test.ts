import { describe, expect, it } from "vitest";
import { isSecretValue, revealed } from "../../../../provider/cli/state-secrets.js";

const SIG = "4dabf18193072939515e22adb298388d";
// A secret as `pulumi stack export --show-secrets` writes it, and as a plain export keeps it.
const shown = (v: unknown) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(v) });
const encrypted = { [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };

describe("an exported state's secrets", () => {
  it("are revealed for recover, so that they compare with what the service returns", () => {
    expect(revealed({ a: [shown("k")], b: { c: shown({ d: 1 }) }, e: "x" })).toEqual({
      a: ["k"],
      b: { c: { d: 1 } },
      e: "x",
    });
  });

  it("are told apart from values for drift, shown or encrypted, and an encrypted one stays as it is", () => {
    expect([
      isSecretValue(encrypted),
      isSecretValue(shown("k")),
      isSecretValue({ k: 1 }),
      isSecretValue(null),
    ]).toEqual([true, true, false, false]);
    expect(revealed({ key: encrypted })).toEqual({ key: encrypted });
  });
});
