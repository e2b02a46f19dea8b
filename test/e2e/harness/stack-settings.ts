import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isMap, parseDocument, Scalar, YAMLMap } from "yaml";

/**
 * The key as `pulumi config set` stores it in the stack's settings file: `<namespace>:<name>`, the
 * project's namespace when the key has none, `a:config:b` (the old form) as `a:b`. Undefined for a
 * key of another shape (more colons, an empty part): the CLI then decides what it means.
 */
function storedKey(key: string, projectName: string): string | undefined {
  const parts = key.split(":");
  if (parts.some((p) => p === "")) return undefined;
  if (parts.length === 1) return `${projectName}:${key}`;
  if (parts.length === 2) return key;
  if (parts.length === 3 && parts[1] === "config") return `${parts[0]}:${parts[2]}`;
  return undefined;
}

/**
 * Writes plain-text config values into a stack's settings file (`Pulumi.<stack>.yaml` beside the
 * project's Pulumi.yaml) as `pulumi config set-all --plaintext` stores them: each under
 * `config.<namespace>:<name>`, a string, replacing what the key held (a secret included). The rest of
 * the file (the passphrase's `encryptionsalt`, other keys, secrets) is kept. Why not the CLI: each
 * start costs about half a second of CPU (the passphrase's key derivation among it), and the e2e suite
 * set config over a hundred times. Values are written double-quoted, so that no text ("3", "true",
 * "2026-01-01", "~") is read back as anything but that string. Returns false, writing nothing, when
 * the CLI must do it: no settings file yet (`pulumi stack init` writes it), a qualified stack name, or
 * a key of a shape other than `name`, `ns:name`, `ns:config:name`.
 * @example
 * if (!writePlainConfig(projectDir, "test", "smoke", { text: "hi" })) await cli(["config", "set-all", …]);
 */
export function writePlainConfig(
  projectDir: string,
  stackName: string,
  projectName: string,
  values: Record<string, string>,
): boolean {
  if (stackName.includes("/")) return false;
  const keys = Object.keys(values).map((k) => storedKey(k, projectName));
  if (keys.some((k) => k === undefined)) return false;
  const file = path.join(projectDir, `Pulumi.${stackName}.yaml`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return false;
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return false;
  // An empty file has no contents: setting a key then makes the map.
  if (doc.contents !== null && !isMap(doc.contents)) return false;
  const config = doc.get("config");
  if (config === undefined || config === null) doc.set("config", new YAMLMap());
  else if (!isMap(config)) return false;
  Object.values(values).forEach((value, i) => {
    const scalar = new Scalar(value);
    scalar.type = Scalar.QUOTE_DOUBLE;
    doc.setIn(["config", keys[i] as string], scalar);
  });
  // No folding of long values: a folded double-quoted line is valid YAML, but unfolded is what any
  // reader parses the same.
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
  return true;
}
