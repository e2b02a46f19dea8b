// The one port's protocol choice: the HTTP/2 connection preface sends a connection to the gRPC
// server, anything else to the HTTP/1.1 server, even when the bytes arrive one by one.
import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { createServer as createH2Server } from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { attachProtocolDispatch, HTTP2_PREFACE, protocolOfPreface } from "../../../../emulator/grpc/index.js";

describe("protocolOfPreface", () => {
  it("is h2 for the whole preface, with or without what follows", () => {
    expect(protocolOfPreface(HTTP2_PREFACE)).toBe("h2");
    expect(protocolOfPreface(Buffer.concat([HTTP2_PREFACE, Buffer.from([0, 0, 0, 4])]))).toBe("h2");
  });

  it("waits while the bytes are a proper prefix of the preface", () => {
    for (let n = 1; n < HTTP2_PREFACE.length; n++) {
      expect(protocolOfPreface(HTTP2_PREFACE.subarray(0, n))).toBe("undecided");
    }
  });

  it("is http1 as soon as a byte differs: every HTTP/1.1 method, and garbage", () => {
    for (const line of [
      "GET / HTTP/1.1\r\n",
      "POST /x HTTP/1.1\r\n",
      "PATCH /",
      "DELETE /",
      "PRI / HTTP/1.1",
      "P\u0000",
    ]) {
      expect(protocolOfPreface(Buffer.from(line, "latin1"))).toBe("http1");
    }
  });
});

describe("attachProtocolDispatch", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  async function start() {
    const http = createHttpServer((_req, res) => res.end("http1"));
    const h2 = createH2Server((_req, res) => res.end("h2"));
    const dispatch = attachProtocolDispatch(http, h2, false);
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    cleanups.push(() => {
      dispatch.close();
      http.closeAllConnections();
      http.close();
    });
    return { port: (http.address() as AddressInfo).port, dispatch };
  }

  async function exchange(port: number, chunks: Buffer[]): Promise<string> {
    const socket: Socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    let text = "";
    socket.on("data", (d: Buffer) => {
      text += d.toString("latin1");
    });
    for (const c of chunks) {
      socket.write(c);
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    return text;
  }

  it("hands an HTTP/1.1 request to the HTTP server, even split byte by byte", async () => {
    const { port, dispatch } = await start();
    const request = Buffer.from("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "latin1");
    expect(await exchange(port, [request])).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*http1$/);
    const split = [...request].map((b) => Buffer.from([b]));
    expect(await exchange(port, split)).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*http1$/);
    expect(dispatch.counts()).toEqual({ http1: 2, h2: 0 });
  });

  it("hands a connection that opens with the HTTP/2 preface to the HTTP/2 server, even split", async () => {
    const { port, dispatch } = await start();
    // The preface, then an empty SETTINGS frame: the server answers with its own SETTINGS frame
    // (type 4), which an HTTP/1.1 server never would.
    const settings = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);
    const whole = await exchange(port, [Buffer.concat([HTTP2_PREFACE, settings])]);
    expect(whole.charCodeAt(3)).toBe(4);
    const split = await exchange(port, [HTTP2_PREFACE.subarray(0, 3), HTTP2_PREFACE.subarray(3), settings]);
    expect(split.charCodeAt(3)).toBe(4);
    expect(dispatch.counts()).toEqual({ http1: 0, h2: 2 });
  });
});
