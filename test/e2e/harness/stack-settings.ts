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

/** Where and what a stack's settings file holds: the stack and project it belongs to. */
export interface StackSettingsAt {
  projectDir: string;
  stackName: string;
  projectName: string;
}

/**
 * Edits the `config` map of a stack's settings file (`Pulumi.<stack>.yaml` beside the project's
 * Pulumi.yaml), keeping the rest of the file (the passphrase's `encryptionsalt`, other keys, secrets).
 * Returns false, writing nothing, when the CLI must do it: no settings file yet (`pulumi stack init`
 * writes it), a qualified stack name, a file of another shape, or a key of a shape other than `name`,
 * `ns:name`, `ns:config:name`.
 */
function editConfig(
  at: StackSettingsAt,
  keys: string[],
  edit: (config: YAMLMap, stored: string[]) => void,
): boolean {
  if (at.stackName.includes("/")) return false;
  const stored = keys.map((k) => storedKey(k, at.projectName));
  if (stored.some((k) => k === undefined)) return false;
  const file = path.join(at.projectDir, `Pulumi.${at.stackName}.yaml`);
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
  let config = doc.get("config");
  if (config === undefined || config === null) {
    config = new YAMLMap();
    doc.set("config", config);
  } else if (!isMap(config)) return false;
  edit(config as YAMLMap, stored as string[]);
  // As the CLI leaves it: no `config` key once it holds nothing.
  if ((config as YAMLMap).items.length === 0) doc.delete("config");
  // No folding of long values: a folded double-quoted line is valid YAML, but unfolded is what any
  // reader parses the same.
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
  return true;
}

/**
 * Writes plain-text config values into a stack's settings file as `pulumi config set-all --plaintext`
 * stores them: each under `config.<namespace>:<name>`, a string, replacing what the key held (a secret
 * included). Why not the CLI: each start costs about 0.35 s of CPU, and the e2e suite sets config over
 * a hundred times. Values are written double-quoted, so that no text ("3", "true", "2026-01-01", "~")
 * is read back as anything but that string. Returns false, writing nothing, when the CLI must do it
 * (see {@link editConfig}).
 * @example
 * if (!writePlainConfig({ projectDir, stackName: "test", projectName: "smoke" }, { text: "hi" })) await viaCli();
 */
export function writePlainConfig(at: StackSettingsAt, values: Record<string, string>): boolean {
  return editConfig(at, Object.keys(values), (config, stored) => {
    Object.values(values).forEach((value, i) => {
      const scalar = new Scalar(value);
      scalar.type = Scalar.QUOTE_DOUBLE;
      config.set(stored[i], scalar);
    });
  });
}

/**
 * Removes config keys (plain or secret) from a stack's settings file as `pulumi config rm-all` does:
 * a key it doesn't hold is no error. Returns false, removing nothing, when the CLI must do it (see
 * {@link editConfig}).
 * @example
 * if (!removeStoredConfig({ projectDir, stackName: "test", projectName: "smoke" }, ["text"])) await viaCli();
 */
export function removeStoredConfig(at: StackSettingsAt, keys: string[]): boolean {
  return editConfig(at, keys, (config, stored) => {
    for (const key of stored) config.delete(key);
  });
}
