import { describe, expect, it } from "vitest";
import { deleteWhenEmpty, REPO_PARENT } from "../../../../../provider/runtime/index.js";
import { ApiError, Code, Status } from "../../../../../sdk/index.js";
import { fakeClient } from "./fake-client.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";
const REPO = `${ORG}/0123456789abcdef`;
const notEmpty = (children: string[]) =>
  new ApiError({
    method: "DELETE",
    path: `/registry/v2/repos/${REPO}`,
    httpStatus: 400,
    status: Status.parse({
      code: Code.FAILED_PRECONDITION,
      message: "repo is not empty",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.PreconditionFailure",
          violations: children.map((subject) => ({
            type: "RESOURCE_NOT_EMPTY",
            subject,
            description: "a tag",
          })),
        },
      ],
    }),
  });

describe("deleting a repo with tags or overlay bindings under it", () => {
  it("retries while its children are being deleted by parallel steps, then deletes it", async () => {
    const left = [[`${REPO}/01`, `${REPO}/02`], [`${REPO}/02`]];
    const { client, calls } = fakeClient({
      "repos.delete": () => {
        const blocking = left.shift();
        if (blocking) throw notEmpty(blocking);
      },
    });
    await deleteWhenEmpty(client, REPO_PARENT, REPO, "app", { sleep: async () => {} });
    expect(calls.filter((c) => c.method === "repos.delete")).toHaveLength(3);
  });

  it("fails once the children stop changing, naming each tag and binding and how to order them", async () => {
    let t = 0;
    const { client } = fakeClient({
      "repos.delete": () => {
        throw notEmpty([`${REPO}/01`]);
      },
      "tags.list": () => ({ items: [{ uid: `${REPO}/01`, name: "latest" }], totalCount: 1 }),
      "overlayBindings.list": () => ({
        items: [{ uid: `${REPO}/02`, overlay: { name: "tools" } }],
        totalCount: 1,
      }),
    });
    const error = await deleteWhenEmpty(client, REPO_PARENT, REPO, "app", {
      stallMs: 10,
      sleep: async () => {
        t += 20;
      },
      now: () => t,
    }).catch((e: Error) => e);
    expect(String(error)).toContain('repo "app"');
    expect(String(error)).toContain('tag "latest"');
    expect(String(error)).toContain('overlay binding "tools"');
    expect(String(error)).toContain("pass its uid as their repoUid");
  });
});
