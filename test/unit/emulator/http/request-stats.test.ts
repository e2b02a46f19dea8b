// The stats count per method and route pattern (issue 40 keeps the counters by method, then
// pattern): the snapshot must still read `"<METHOD> <pattern>"` keys in the order first counted.
import { expect, test } from "vitest";
import { RequestStats } from "../../../../emulator/http/index.js";

test("requests are counted per method and pattern, listed in the order first seen; reset starts over", () => {
  const stats = new RequestStats();
  stats.record("GET", "/iam/v2beta1/groups/*", undefined);
  stats.record("PATCH", "/iam/v2beta1/groups/*", "description");
  stats.record("GET", "/iam/v2beta1/identities/*", undefined);
  stats.record("GET", "/iam/v2beta1/groups/*", undefined);
  stats.record("GRPC", "/chainguard.platform.iam.v2beta1.Groups/Update", "name");
  const snapshot = stats.snapshot();
  expect(snapshot).toEqual({
    total: 5,
    requests: {
      "GET /iam/v2beta1/groups/*": 2,
      "PATCH /iam/v2beta1/groups/*": 1,
      "GET /iam/v2beta1/identities/*": 1,
      "GRPC /chainguard.platform.iam.v2beta1.Groups/Update": 1,
    },
    updateMasks: { description: 1, name: 1 },
    rateLimited: 0,
  });
  expect(Object.keys(snapshot.requests)).toEqual([
    "GET /iam/v2beta1/groups/*",
    "PATCH /iam/v2beta1/groups/*",
    "GET /iam/v2beta1/identities/*",
    "GRPC /chainguard.platform.iam.v2beta1.Groups/Update",
  ]);
  stats.reset();
  expect(stats.snapshot()).toEqual({ total: 0, requests: {}, updateMasks: {}, rateLimited: 0 });
  stats.record("DELETE", "/iam/v2beta1/groups/*", undefined);
  expect(stats.snapshot().requests).toEqual({ "DELETE /iam/v2beta1/groups/*": 1 });
});
