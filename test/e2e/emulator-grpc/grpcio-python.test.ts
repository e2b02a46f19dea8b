// A Python program on grpcio (PyPI), with stubs generated from proto/ by grpcio-tools, against
// irv-emulator's one port: group CRUD, an identity and a binding, the google.rpc.Status it reads from
// grpc-status-details-bin, and a token exchange.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliRun } from "../../integration/emulator/cli-process.js";
import { buildCliIfStale, runCli } from "../../integration/emulator/cli-process.js";
import { ensureGrpcioVenv, generatePythonStubs } from "./grpcio-venv.js";

const root = path.resolve(import.meta.dirname, "../../..");
const protoDir = path.join(root, "proto");
let python: string;
let stubs: string;
let run: CliRun;
let ready: Record<string, string>;

function protoFiles(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(prefix, e.name);
    if (e.isDirectory()) return rel === "grpc" ? [] : protoFiles(dir, rel);
    return e.name.endsWith(".proto") ? [rel] : [];
  });
}

beforeAll(async () => {
  python = await ensureGrpcioVenv();
  stubs = mkdtempSync(path.join(tmpdir(), "irv-pystubs-"));
  generatePythonStubs(python, protoDir, stubs, protoFiles(protoDir));
  if (!buildCliIfStale()) throw new Error("the emulator CLI is not built");
  run = runCli(["--port", "0"]);
  ready = await run.ready;
}, 600_000);
afterAll(async () => {
  run?.child.kill("SIGTERM");
  await run?.exit;
  if (stubs !== undefined) rmSync(stubs, { recursive: true, force: true });
});

describe("a grpcio program against the emulator", () => {
  it("does CRUD, reads the error details from grpc-status-details-bin and exchanges a token", async () => {
    const { stdout } = await promisify(execFile)(
      python,
      [path.join(import.meta.dirname, "grpcio_client.py"), JSON.stringify(ready), stubs],
      { env: { ...process.env, PYTHONPATH: stubs } },
    );
    expect(JSON.parse(stdout)).toEqual({
      group: { name: "by-python", description: "from grpcio" },
      listed: 1,
      binding: { identity: true, role: "viewer" },
      error: {
        code: "FAILED_PRECONDITION",
        status: 9,
        details: ["ErrorInfo", { violations: ["RESOURCE_NOT_EMPTY", "RESOURCE_NOT_EMPTY"] }, "RequestInfo"],
      },
      exchanged: "by-python",
    });
  });
});
