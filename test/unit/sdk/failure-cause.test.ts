import { describe, expect, it } from "vitest";
import { ApiError, classifyFailure, NetworkError } from "../../../sdk/index.js";

const url = "https://irv.example/registry/v2/repos";
const network = (code: string | undefined) =>
  new NetworkError(`GET /registry/v2/repos: ${code}`, false, code, { url });
const api = (httpStatus: number, code: number, message: string) =>
  ApiError.fromResponse({
    method: "GET",
    path: "/registry/v2/repos",
    url,
    httpStatus,
    body: JSON.stringify({ code, message, details: [] }),
  });

describe("classifyFailure", () => {
  it.each([
    ["ECONNREFUSED", "connection refused", "address"],
    ["ENOTFOUND", "unknown host (the DNS lookup found no such name)", "address"],
    ["ERR_SSL_WRONG_VERSION_NUMBER", "TLS failure (ERR_SSL_WRONG_VERSION_NUMBER)", "tls"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "TLS failure (DEPTH_ZERO_SELF_SIGNED_CERT)", "tls"],
    ["UND_ERR_HEADERS_TIMEOUT", "timeout: no answer in time", "timeout"],
    ["UND_ERR_CONNECT_TIMEOUT", "timeout: no answer in time", "timeout"],
  ])("words the transport failure %s as %j, pointing at the %s", (code, cause, hint) => {
    expect(classifyFailure(network(code))).toEqual({ url, cause, hint });
  });

  it("keeps the service's message of a 401 and a 403", () => {
    expect(classifyFailure(api(401, 16, "token expired"))).toEqual({
      url,
      cause: "401 UNAUTHENTICATED: token expired",
      hint: "credentials",
    });
    expect(classifyFailure(api(403, 7, "Permission denied: no"))).toEqual({
      url,
      cause: "403 PERMISSION_DENIED: Permission denied: no",
      hint: "permission",
    });
  });

  it("leaves the API's other refusals and programming errors to their own message", () => {
    expect(classifyFailure(api(400, 3, "Invalid argument: name"))).toBeUndefined();
    expect(classifyFailure(new TypeError("x is undefined"))).toBeUndefined();
  });

  it("never carries a credential in the URL it names", () => {
    const leaky = new NetworkError("GET", false, "ECONNREFUSED", {
      url: "https://irv.example/x?access_token=s3cret",
    });
    expect(classifyFailure(leaky)?.url).not.toContain("s3cret");
  });
});
