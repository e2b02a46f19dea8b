// With --tls-cert/--tls-key the one port speaks TLS: ALPN gives gRPC clients HTTP/2 and the JSON API's
// clients HTTP/1.1. The certificate is made at test time (openssl), never stored in the repository.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect } from "node:tls";
import type { JsonValue } from "@bufbuild/protobuf";
import { equals, fromJson } from "@bufbuild/protobuf";
import { Agent, fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GroupSchema,
  GroupsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import type { EmulatorHandle } from "../../../../emulator/index.js";
import { startEmulator } from "../../../../emulator/index.js";
import { grpcClient } from "./grpc-client.js";

let dir: string;
let ca: string;
let emu: EmulatorHandle;
let agent: Agent;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "irv-tls-"));
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=irv-emulator-test"],
      ...["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
    ],
    { stdio: "ignore" },
  );
  ca = readFileSync(cert, "utf8");
  emu = await startEmulator({ tlsCert: cert, tlsKey: key });
  agent = new Agent({ connect: { ca } });
});
afterAll(async () => {
  await agent?.close();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

// The protocol a TLS client offering `protocols` is given.
async function alpn(protocols: string[]): Promise<string | false | null> {
  const [host, port] = emu.grpcTarget.split(":");
  const socket = connect({ host, port: Number(port), ca, ALPNProtocols: protocols, servername: "localhost" });
  await new Promise((resolve, reject) => socket.once("secureConnect", resolve).once("error", reject));
  const chosen = socket.alpnProtocol;
  socket.destroy();
  return chosen;
}

describe("TLS on the one port", () => {
  it("announces https and chooses h2 or http/1.1 by ALPN", async () => {
    expect(emu.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await alpn(["h2", "http/1.1"])).toBe("h2");
    expect(await alpn(["http/1.1"])).toBe("http/1.1");
  });

  it("serves the same group to a gRPC client and to a JSON client (over the protocol ALPN gives it)", async () => {
    const groups = grpcClient(GroupsService, emu.baseUrl, emu.adminToken, ca);
    const created = await groups.createGroup({ parent: emu.orgUid, group: { name: "over-tls" } });
    const res = await fetch(`${emu.baseUrl}/iam/v2beta1/groups/${created.uid}`, {
      headers: { authorization: `Bearer ${emu.adminToken}` },
      dispatcher: agent,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const overHttp = fromJson(GroupSchema, (await res.json()) as JsonValue);
    expect(equals(GroupSchema, created, overHttp)).toBe(true);
    expect(equals(GroupSchema, await groups.getGroup({ uid: created.uid }), overHttp)).toBe(true);
    await groups.deleteGroup({ uid: created.uid });
  });
});
