import { z } from "zod";

// The key Pulumi marks a secret value with in an exported state (`pulumi stack export`), with or
// without `--show-secrets`: an object holding this key is a secret, never a user's value.
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const Revealed = z.object({
  [SECRET_SIG]: z.literal("1b47061264138c4ac30d75fd1eb44270"),
  plaintext: z.string(),
});

/**
 * Whether a value of an exported state is a secret (encrypted, or revealed by `--show-secrets`): one
 * that drift cannot compare without the stack's key.
 *
 * @example
 * isSecretValue({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "…" }); // true
 * isSecretValue("team-a"); // false
 */
export function isSecretValue(value: unknown): boolean {
  return typeof value === "object" && value !== null && SECRET_SIG in value;
}

/**
 * `value` with every secret of a state exported with `--show-secrets` replaced by its plaintext
 * value, so that a secret input (a static identity's `issuerKeys`) compares with what the service
 * returns. An encrypted secret stays as it is.
 *
 * @example
 * revealed({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"k"' }); // "k"
 */
export function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (typeof value !== "object" || value === null) return value;
  const secret = Revealed.safeParse(value);
  if (secret.success) return JSON.parse(secret.data.plaintext) as unknown;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revealed(v)]));
}
