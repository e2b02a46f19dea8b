// Malformed input never crashes the emulator and never gets a 5xx: every bad body, header, query or
// route answers an AIP-193 error with a 4xx status and an x-request-id.
import { connect } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Answer, ErrorBody, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

function expectError(a: Answer<ErrorBody>, code: number) {
  expect(a.status).toBeGreaterThanOrEqual(400);
  expect(a.status).toBeLessThan(500);
  expect(a.body.code).toBe(code);
  expect(a.headers.get("x-request-id")).toEqual(expect.any(String));
  expect(detail(a.body, "RequestInfo")).toMatchObject({ requestId: a.headers.get("x-request-id") });
}

describe("bodies", () => {
  const create = (o: Parameters<TestEmulator["call"]>[2]) =>
    emu.call<ErrorBody>("POST", `/iam/v2beta1/groups/${emu.orgUid}`, o);

  test.each([
    ["malformed JSON", "{name:", "body"],
    ["a JSON array", "[1,2]", "body"],
    ["a JSON string", '"name"', "body"],
    ["JSON null", "null", "body"],
    ["a __proto__ key", '{"__proto__":{"x":1},"name":"p"}', "body"],
    ["a constructor.prototype key", '{"constructor":{"prototype":{"x":1}},"name":"p"}', "body"],
    ["truncated JSON", '{"name": "a"', "body"],
  ])("%s is code 3 on the body", async (_what, rawBody, field) => {
    const a = await create({ rawBody, headers: { "content-type": "application/json" } });
    expectError(a, 3);
    expect(
      detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations[0]?.field,
    ).toBe(field);
  });

  test("wrong field types are code 3 with one violation per JSON path", async () => {
    const a = await emu.call<ErrorBody>("POST", `/iam/v2beta1/identities/${emu.orgUid}`, {
      body: { name: ["x"], claimMatch: { issuer: 1, subject: null } },
    });
    expectError(a, 3);
    const fields = detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations.map(
      (v) => v.field,
    );
    expect(fields.sort()).toEqual(["claimMatch.issuer", "claimMatch.subject", "name"]);
  });

  test("a body over 1 MiB is code 3", async () => {
    const a = await create({ body: { name: "big", description: "x".repeat(1024 * 1024) } });
    expectError(a, 3);
    expect(a.body.message).toContain("1 MiB");
  });

  test("a body with another content type is code 3 naming Content-Type; no content type with no body is fine", async () => {
    const a = await create({
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectError(a, 3);
    expect(
      detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations[0]?.field,
    ).toBe("Content-Type");
    const g = await emu.group("del-no-body");
    expect(
      (
        await emu.call("DELETE", `/iam/v2beta1/groups/${g.uid}`, {
          headers: { "content-type": "text/plain" },
        })
      ).status,
    ).toBe(200);
  });

  test("an empty JSON body on create is code 3 (name is required)", async () => {
    expectError(await create({ rawBody: "", headers: { "content-type": "application/json" } }), 3);
  });

  test("a mismatched Content-Length never hangs or crashes the server", async () => {
    const url = new URL(`/iam/v2beta1/groups/${emu.orgUid}`, emu.baseUrl);
    const res = await request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${emu.adminToken}`,
        "content-type": "application/json",
        "content-length": "2",
      },
      body: '{"name":"x"}',
    }).catch((e: Error) => e);
    if (!(res instanceof Error)) {
      expect(res.statusCode).toBeLessThan(500);
      await res.body.text();
    }
    expect((await emu.call("GET", "/iam/v2beta1/roles")).status).toBe(200);
  });
});

describe("queries and routes", () => {
  test("a repeated list parameter is code 3", async () => {
    const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups?page_size=1&page_size=2");
    expectError(a, 3);
  });

  test("a repeated updateMask is code 3", async () => {
    const g = await emu.group("mask-twice");
    expectError(
      await emu.call<ErrorBody>(
        "PATCH",
        `/iam/v2beta1/groups/${g.uid}?updateMask=name&updateMask=description`,
        {
          body: { description: "x" },
        },
      ),
      3,
    );
  });

  test("an unknown route is code 5; a known collection with a wrong method is code 12 with HTTP 405", async () => {
    expectError(await emu.call<ErrorBody>("GET", "/iam/v2beta1/widgets"), 5);
    expectError(await emu.call<ErrorBody>("GET", "/nothing/here"), 5);
    const put = await emu.call<ErrorBody>("PUT", `/iam/v2beta1/groups/${emu.orgUid}`, { body: {} });
    expectError(put, 12);
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, PATCH, DELETE");
    const postCollection = await emu.call<ErrorBody>("POST", "/iam/v2beta1/groups", { body: { name: "x" } });
    expectError(postCollection, 12);
    expect(postCollection.headers.get("allow")).toBe("GET");
  });

  test("a malformed percent-encoding in the URL is code 3", async () => {
    expectError(await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups/%zz"), 3);
  });

  test("a very deep uid is simply not found", async () => {
    const deep = `${emu.orgUid}${"/0123456789abcdef".repeat(300)}`;
    expectError(await emu.call<ErrorBody>("GET", `/iam/v2beta1/groups/${deep}`), 5);
    // Past the router's parameter limit too (8 KiB): still "not found", not "method not allowed".
    const deeper = `${emu.orgUid}${"/0123456789abcdef".repeat(600)}`;
    expectError(await emu.call<ErrorBody>("GET", `/iam/v2beta1/groups/${deeper}`), 5);
  });

  test("the server still answers after all of the above", async () => {
    expect((await emu.call("GET", "/iam/v2beta1/groups")).status).toBe(200);
  });
});

describe("requests the HTTP parser refuses", () => {
  // Sends raw bytes and reads the whole answer (the server closes the connection after it).
  const raw = (head: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      const url = new URL(emu.baseUrl);
      const socket = connect(Number(url.port), url.hostname, () => socket.end(Buffer.from(head, "utf8")));
      const chunks: Buffer[] = [];
      socket.on("data", (b) => chunks.push(b));
      socket.on("error", reject);
      socket.on("close", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const [headers = "", body = ""] = text.split("\r\n\r\n");
        resolve({ status: Number(headers.split(" ")[1]), headers, body });
      });
    });

  test.each([
    [
      "a request head over 16 KiB",
      `GET /iam/v2beta1/groups?name=${"x".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ],
    ["raw non-ASCII bytes in the request line", "GET /iam/v2beta1/groups/ü HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["a request line that is not HTTP", "HELLO\r\n\r\n"],
  ])(
    "regression (parser-refused requests answered in fastify's own shape): %s is code 3 under HTTP 400 in the AIP-193 shape",
    async (_what, head) => {
      const a = await raw(head);
      expect(a.status).toBe(400);
      const body = JSON.parse(a.body) as ErrorBody;
      expect(body.code).toBe(3);
      const requestId = /x-request-id: (\S+)/i.exec(a.headers)?.[1];
      expect(requestId).toEqual(expect.any(String));
      expect(detail(body, "RequestInfo")).toMatchObject({ requestId });
      expect(detail(body, "ErrorInfo")).toMatchObject({ reason: "INVALID_ARGUMENT" });
    },
  );

  test("the server still answers afterwards", async () => {
    expect((await emu.call("GET", "/iam/v2beta1/groups")).status).toBe(200);
  });
});
