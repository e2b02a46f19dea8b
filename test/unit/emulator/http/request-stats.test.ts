// The stats count per method and route pattern (issue 40 keeps the counters by method, then
// pattern): the snapshot must still read `"<METHOD> <pattern>"` keys in the order first counted.
import { expect, test } from "vitest";
import { RequestStats } from "../../../../emulator/http/index.js";

const NO_DELIVERIES = { queued: 0, attempts: 0, accepted: 0, rejected: 0, failed: 0, cancelled: 0 };

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
    deliveries: NO_DELIVERIES,
  });
  expect(Object.keys(snapshot.requests)).toEqual([
    "GET /iam/v2beta1/groups/*",
    "PATCH /iam/v2beta1/groups/*",
    "GET /iam/v2beta1/identities/*",
    "GRPC /chainguard.platform.iam.v2beta1.Groups/Update",
  ]);
  stats.reset();
  expect(stats.snapshot()).toEqual({
    total: 0,
    requests: {},
    updateMasks: {},
    rateLimited: 0,
    deliveries: NO_DELIVERIES,
  });
  stats.record("DELETE", "/iam/v2beta1/groups/*", undefined);
  expect(stats.snapshot().requests).toEqual({ "DELETE /iam/v2beta1/groups/*": 1 });
});

test("webhook deliveries are counted beside the requests, and reset with them (issue 46)", () => {
  const stats = new RequestStats();
  stats.recordDelivery("queued");
  stats.recordDelivery("attempts");
  stats.recordDelivery("attempts");
  stats.recordDelivery("accepted");
  expect(stats.snapshot().deliveries).toEqual({ ...NO_DELIVERIES, queued: 1, attempts: 2, accepted: 1 });
  expect(stats.snapshot().total).toBe(0);
  stats.reset();
  expect(stats.snapshot().deliveries).toEqual(NO_DELIVERIES);
});
