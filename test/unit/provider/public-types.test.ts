import { describe, expectTypeOf, it } from "vitest";
import type * as irv from "../../../provider/index.js";
import type * as sdk from "../../../sdk/index.js";

type Flat<T> = { [K in keyof T]: T[K] };

// The lookups return plain interfaces (zod's declarations do not compile in a `pulumi new typescript`
// project); these assertions fail `npm run typecheck` when they drift from the sdk's wire schemas.
describe("public lookup types", () => {
  it("irv.Role, irv.Repo and irv.Advisory are exactly the sdk's wire types (a role with the group the lookup named, a repo's sync_config as syncConfig)", () => {
    expectTypeOf<irv.Role>().toEqualTypeOf<Flat<sdk.Role & { parentUid?: string | undefined }>>();
    expectTypeOf<irv.Repo>().toEqualTypeOf<
      Flat<Omit<sdk.Repo, "sync_config"> & { syncConfig?: sdk.Repo["sync_config"] }>
    >();
    expectTypeOf<irv.Advisory>().toEqualTypeOf<sdk.Advisory>();
  });

  it("irv.Group, irv.Identity, irv.IdentityProvider and irv.Tag are exactly the sdk's wire types", () => {
    expectTypeOf<irv.Group>().toEqualTypeOf<sdk.Group>();
    expectTypeOf<irv.Identity>().toEqualTypeOf<sdk.Identity>();
    expectTypeOf<irv.IdentityProvider>().toEqualTypeOf<sdk.IdentityProvider>();
    expectTypeOf<irv.Tag>().toEqualTypeOf<sdk.Tag>();
  });

  it("irv.ListFilter carries every filter field of the sdk's list query", () => {
    expectTypeOf<Required<irv.ListFilter>>().toExtend<Pick<Required<sdk.ListQuery>, keyof irv.ListFilter>>();
  });
});
