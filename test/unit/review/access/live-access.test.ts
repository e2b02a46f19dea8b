// Where --live looks: the stack's topmost groups listed whole, and every group whose bindings grant
// into them (its bindings' groups outside those subtrees, its groups' parents and everything above)
// one level at a time.
import { expect, test } from "vitest";
import { liveBindings, PREVIEW_UNKNOWN, touchedGroups } from "../../../../review/index.js";
import { iamResource, ORG, seg } from "../../provider/iam-resource.js";

const res = iamResource;
const platform = `${ORG}/${seg(1)}`;
const payments = `${platform}/${seg(2)}`;
const shared = `${ORG}/${seg(3)}`;
const other = `${ORG}/${seg(4)}/${seg(5)}`;

test("the stack's topmost groups are subtrees; binding groups outside them and every group above are listed one level", () => {
  const touched = touchedGroups([
    res("Group", "platform", { uid: platform, parentUid: ORG }),
    res("Group", "payments", { uid: payments, parentUid: platform }),
    res("Group", "new", { uid: PREVIEW_UNKNOWN, parentUid: shared }),
    res("RoleBinding", "in", { groupUid: payments }),
    res("RoleBinding", "out", { groupUid: other }),
  ]);
  expect(touched.subtrees).toEqual([platform]);
  expect(touched.groups).toEqual([ORG, shared, `${ORG}/${seg(4)}`, other].sort());
});

// Issue 45: --live and the gate count external group role mappings as they count bindings.
test("the live read lists the organization's external group role mappings beside the bindings, leaving the stack's own out", async () => {
  const idp = `${platform}/${seg(6)}`;
  const page = <T>(items: T[]) => ({ items, nextPageToken: "" });
  const mapping = (n: number) => ({
    uid: `${idp}/${seg(n)}`,
    identityProviderUid: idp,
    externalGroupId: `g${n}`,
    roleUid: "r",
    scope: ORG,
  });
  const queries: unknown[] = [];
  const client = {
    roleBindings: { list: async () => page([]) },
    externalGroupRoleMappings: {
      list: async (q: unknown) => {
        queries.push(q);
        return page([mapping(7), mapping(8)]);
      },
    },
  } as unknown as Parameters<typeof liveBindings>[0];
  const live = await liveBindings(client, { subtrees: [platform] }, new Set([`${idp}/${seg(8)}`]));
  expect(queries).toEqual([expect.objectContaining({ descendantsOf: ORG })]);
  expect(live.resources.map((r) => [r.type, r.id, r.external])).toEqual([
    ["irv:iam:ExternalGroupRoleMapping", `${idp}/${seg(7)}`, true],
  ]);
  expect(live.requests).toBe(3);
});
