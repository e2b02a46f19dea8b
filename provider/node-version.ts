// The Node.js this package needs, checked before anything else loads: an older Node otherwise dies
// deep inside a dependency (undici reads zlib's zstd support, Node >= 22.15) with a stack trace.
// Imported first by the package's entry (./index.ts) and by the `pulumi-irv` bin (./cli/main.ts):
// ES modules evaluate their imports in order, so this runs before undici is loaded.

/**
 * The oldest Node.js this package runs on (package.json `engines.node`).
 * @example
 * `Node.js >= ${MIN_NODE_VERSION}`;
 */
export const MIN_NODE_VERSION = "22.19";

/**
 * The one-line message for an unsupported Node, or undefined when `version` (`process.versions.node`) is new enough.
 * @example
 * nodeVersionProblem("20.20.2"); // "pulumi-irv: Node.js >= 22.19 is required; this is Node.js 20.20.2 …"
 */
export function nodeVersionProblem(version: string, execPath = process.execPath): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [minMajor = 0, minMinor = 0] = MIN_NODE_VERSION.split(".").map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined;
  return `pulumi-irv: Node.js >= ${MIN_NODE_VERSION} is required; this is Node.js ${version} (${execPath}). Install a newer Node.js (https://nodejs.org) or put it first on PATH.`;
}

const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  console.error(problem);
  process.exit(1);
}
