import { describe, expect, it } from "vitest";
import { ApiError, redactSecrets, TYPE_URL_PREFIX } from "../../../sdk/index.js";

const body = (o: object) => JSON.stringify(o);

describe("ApiError", () => {
  it("reads code, reason, domain and field violations of a refused group name", () => {
    const e = ApiError.fromResponse({
      method: "POST",
      path: "/iam/v2/groups/abc",
      httpStatus: 400,
      body: body({
        code: 3,
        message: "Invalid argument: name",
        details: [
          { "@type": `${TYPE_URL_PREFIX}ErrorInfo`, reason: "INVALID_ARGUMENT", domain: "iam.irv.dev" },
          {
            "@type": `${TYPE_URL_PREFIX}BadRequest`,
            fieldViolations: [{ field: "name", description: "must match ^[a-z0-9 ._-]{1,}$" }],
          },
          { "@type": `${TYPE_URL_PREFIX}RequestInfo`, requestId: "req-1" },
        ],
      }),
    });
    expect(e.code).toBe(3);
    expect(e.codeName).toBe("INVALID_ARGUMENT");
    expect(e.reason).toBe("INVALID_ARGUMENT");
    expect(e.domain).toBe("iam.irv.dev");
    expect(e.fieldViolations).toEqual([{ field: "name", description: "must match ^[a-z0-9 ._-]{1,}$" }]);
    expect(e.requestId).toBe("req-1");
    expect(e.message).toContain("field name: must match ^[a-z0-9 ._-]{1,}$");
    expect(e.message).toContain("request id req-1");
  });

  it("recognises RESOURCE_NOT_EMPTY and lists what blocks", () => {
    const e = ApiError.fromResponse({
      method: "DELETE",
      path: "/iam/v2/groups/abc",
      httpStatus: 400,
      body: body({
        code: 9,
        message: "Precondition failed: group is not empty",
        details: [
          {
            "@type": `${TYPE_URL_PREFIX}PreconditionFailure`,
            violations: [{ type: "RESOURCE_NOT_EMPTY", subject: "abc/def", description: "has repo app" }],
          },
        ],
      }),
    });
    expect(e.isResourceNotEmpty()).toBe(true);
    expect(e.preconditionViolations[0]?.subject).toBe("abc/def");
    expect(e.message).toContain("RESOURCE_NOT_EMPTY (abc/def): has repo app");
  });

  it("is not RESOURCE_NOT_EMPTY for another failed precondition", () => {
    const e = ApiError.fromResponse({
      method: "DELETE",
      path: "/x",
      httpStatus: 400,
      body: body({ code: 9, message: "m", details: [] }),
    });
    expect(e.isResourceNotEmpty()).toBe(false);
  });

  it("falls back to the HTTP status when the body is not an AIP-193 status", () => {
    const e = ApiError.fromResponse({
      method: "GET",
      path: "/x",
      httpStatus: 502,
      body: "<html>bad gateway</html>",
    });
    expect(e.codeName).toBe("UNAVAILABLE");
    expect(e.message).toContain("HTTP 502");
  });

  it("keeps details of unknown types", () => {
    const e = ApiError.fromResponse({
      method: "GET",
      path: "/x",
      httpStatus: 400,
      body: body({ code: 3, message: "m", details: [{ "@type": "type.example/Other", x: 1 }] }),
    });
    expect(e.details).toEqual([{ "@type": "type.example/Other", x: 1 }]);
  });

  it("takes the retry delay from a RetryInfo detail", () => {
    const e = ApiError.fromResponse({
      method: "GET",
      path: "/x",
      httpStatus: 429,
      body: body({
        code: 8,
        message: "m",
        details: [{ "@type": `${TYPE_URL_PREFIX}RetryInfo`, retryDelay: "1.5s" }],
      }),
    });
    expect(e.retryAfterMs).toBe(1500);
  });

  it("prefers RetryInfo's millisecond delay to Retry-After's whole seconds (a rate limit's 20 ms wait is not a second)", () => {
    const e = ApiError.fromResponse({
      method: "GET",
      path: "/x",
      httpStatus: 429,
      retryAfterMs: 1000,
      body: body({
        code: 8,
        message: "m",
        details: [{ "@type": `${TYPE_URL_PREFIX}RetryInfo`, retryDelay: "0.020s" }],
      }),
    });
    expect(e.retryAfterMs).toBe(20);
  });
});

describe("redactSecrets", () => {
  it("blanks bearer values, JWTs and token query parameters", () => {
    const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    expect(redactSecrets(`Authorization: Bearer abc123`)).toBe("Authorization: Bearer ***");
    expect(redactSecrets(`got ${jwt} back`)).toBe("got *** back");
    expect(redactSecrets("/sts?token=abc&x=1")).toBe("/sts?token=***&x=1");
  });
});
