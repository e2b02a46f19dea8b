// A Python virtual environment with grpcio and grpcio-tools from PyPI, made once per machine and
// cached outside the repository (beside the Pulumi CLI's cache entry).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { cacheRoot, withLock } from "../../../scripts/pulumi-cli.js";

/**
 * The grpcio and grpcio-tools release installed.
 *
 * @example
 * GRPCIO_VERSION; // "1.85.1"
 */
export const GRPCIO_VERSION = "1.85.1";

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr || r.error?.message}`);
}

/**
 * The venv's python (`…/pulumi-irv/grpcio-1.85.1/bin/python`), made with `python3 -m venv` and pip on
 * first use (a temporary directory renamed into place: a killed install leaves no half entry).
 *
 * @example
 * const python = await ensureGrpcioVenv();
 */
export async function ensureGrpcioVenv(
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<string> {
  const entry = path.join(cacheRoot(), `grpcio-${GRPCIO_VERSION}`);
  const python = path.join(entry, "bin", "python");
  if (existsSync(python)) return python;
  await withLock(`${entry}.lock`, log, async () => {
    if (existsSync(python)) return;
    const work = mkdtempSync(path.join(path.dirname(entry), ".venv-"));
    try {
      log(`pulumi-irv: installing grpcio ${GRPCIO_VERSION} and grpcio-tools into ${entry}…`);
      // The venv lives at its final path (scripts in bin/ name it), built under a temporary name.
      rmSync(work, { recursive: true, force: true });
      run("python3", ["-m", "venv", work]);
      run(path.join(work, "bin", "pip"), [
        "install",
        "-q",
        `grpcio==${GRPCIO_VERSION}`,
        `grpcio-tools==${GRPCIO_VERSION}`,
      ]);
      renameSync(work, entry);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  return python;
}

/**
 * Generates Python messages and stubs from `proto/` into `out` with grpcio-tools (the reflection
 * files excepted: their package is `grpc`, which would hide grpcio's own).
 *
 * @example
 * generatePythonStubs(python, "proto", tmpDir);
 */
export function generatePythonStubs(python: string, protoDir: string, out: string, files: string[]): void {
  run(python, [
    "-m",
    "grpc_tools.protoc",
    `-I${protoDir}`,
    `--python_out=${out}`,
    `--grpc_python_out=${out}`,
    ...files,
  ]);
}
