// Where --live looks: the stack's topmost groups listed whole, and every group whose bindings grant
// into them (its bindings' groups outside those subtrees, its groups' parents and everything above)
// one level at a time.
import { expect, test } from "vitest";
import { PREVIEW_UNKNOWN, touchedGroups } from "../../../../review/index.js";
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
