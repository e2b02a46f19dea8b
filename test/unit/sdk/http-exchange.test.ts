// The client's HTTP exchange reads an answer through undici's handler interface (no Readable stream
// per answer: the provider pays for one per resource in a refresh or a destroy). What `request()`
// and its body stream did for us must still hold: the body whole and decoded, the caller's signal,
// and a failure after the status line known to have reached the service. Against a real server on
// loopback, since these are properties of the bytes on the wire.
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { httpCall } from "../../../sdk/http/http-call.js";
import { NetworkError } from "../../../sdk/index.js";

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<URL> {
  const server = createServer(handler);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push({
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/iam/v2/groups/x?a=1`);
}

const call = (url: URL, extra: { signal?: AbortSignal } = {}) => ({
  method: "GET" as const,
  url,
  path: "/iam/v2/groups/x",
  headers: { accept: "application/json" },
  dispatcher: new Agent(),
  timeoutMs: 5_000,
  ...extra,
});

describe("one HTTP exchange", () => {
  it("reads an answer sent in pieces as one text, a character split between two pieces intact, a byte order mark dropped", async () => {
    const body = Buffer.from('\uFEFF{"name":"équipe-α"}', "utf8");
    const url = await serve((req, res) => {
      // The path and query reach the server as given.
      expect(req.url).toBe("/iam/v2/groups/x?a=1");
      res.writeHead(200, { "content-type": "application/json" });
      res.write(body.subarray(0, 14)); // ends inside "é"
      setTimeout(() => res.end(body.subarray(14)), 20);
    });
    const answer = await httpCall(call(url));
    expect(answer).toEqual({ status: 200, text: '{"name":"équipe-α"}' });
  });

  it("ends with the caller's reason when its signal aborts while the answer is awaited", async () => {
    const url = await serve(() => {
      // Never answers.
    });
    const controller = new AbortController();
    const pending = httpCall(call(url, { signal: controller.signal }));
    setTimeout(() => controller.abort(new DOMException("stop", "AbortError")), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError", message: "stop" });
  });

  it("says the request was sent when the connection breaks after the status line", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const err = await httpCall(call(url)).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.sent).toBe(true);
    expect(err.message).toMatch(/^GET \/iam\/v2\/groups\/x: /);
  });

  it("says the request was never sent when nothing listens", async () => {
    const url = await serve(() => {});
    for (const s of servers.splice(0)) s.close();
    const closed = new URL(url);
    closed.port = "1"; // nothing listens on port 1
    const err = await httpCall(call(closed)).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.sent).toBe(false);
    expect(err.errorCode).toBe("ECONNREFUSED");
  });
});
