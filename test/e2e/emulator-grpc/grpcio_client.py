"""A Python program on grpcio, with stubs generated from proto/ by grpcio-tools, against the
emulator's one port: group CRUD, an identity and a binding, an error whose google.rpc.Status it reads
from grpc-status-details-bin, and a token exchange. Prints one JSON line of what it saw."""

import json
import os
import platform as _stdlib_platform
import sys
import urllib.request

import grpc

# The published file paths put the OIDC and uidp files under `platform/`, which is also the name of
# a standard-library module (already imported by grpc). Python imports submodules of any module with
# a __path__, so the generated package is reached through it.
_stdlib_platform.__path__ = [os.path.join(sys.argv[2], "platform")]

from chainguard.platform.iam.v2beta1 import groups_pb2, groups_pb2_grpc
from chainguard.platform.iam.v2beta1 import identities_pb2, identities_pb2_grpc
from chainguard.platform.iam.v2beta1 import role_bindings_pb2, role_bindings_pb2_grpc
from chainguard.platform.iam.v2beta1 import roles_pb2, roles_pb2_grpc
from google.protobuf import field_mask_pb2
from google.rpc import error_details_pb2, status_pb2
from platform.oidc.v1.oidc import platform_pb2 as oidc_pb2  # noqa: E402
from platform.oidc.v1.oidc import platform_pb2_grpc as oidc_pb2_grpc  # noqa: E402


def main() -> None:
    ready = json.loads(sys.argv[1])
    target = ready["baseUrl"].split("://", 1)[1]
    admin = (("authorization", f"Bearer {ready['adminToken']}"),)
    channel = grpc.insecure_channel(target)
    groups = groups_pb2_grpc.GroupsServiceStub(channel)
    identities = identities_pb2_grpc.IdentitiesServiceStub(channel)
    bindings = role_bindings_pb2_grpc.RoleBindingsServiceStub(channel)
    roles = roles_pb2_grpc.RolesServiceStub(channel)
    seen = {}

    group = groups.CreateGroup(
        groups_pb2.CreateGroupRequest(parent=ready["orgUid"], group=groups_pb2.Group(name="by-python")),
        metadata=admin,
    )
    updated = groups.UpdateGroup(
        groups_pb2.UpdateGroupRequest(
            group=groups_pb2.Group(uid=group.uid, description="from grpcio"),
            update_mask=field_mask_pb2.FieldMask(paths=["description"]),
        ),
        metadata=admin,
    )
    seen["group"] = {"name": updated.name, "description": updated.description}
    seen["listed"] = [
        g.uid
        for g in groups.ListGroups(
            groups_pb2.ListGroupsRequest(uidp={"children_of": ready["orgUid"]}), metadata=admin
        ).groups
    ].count(group.uid)

    identity = identities.CreateIdentity(
        identities_pb2.CreateIdentityRequest(
            parent=group.uid,
            identity=identities_pb2.Identity(
                name="py",
                claim_match=identities_pb2.Identity.ClaimMatch(issuer=ready["issuerUrl"], subject="py-subject"),
            ),
        ),
        metadata=admin,
    )
    viewer = roles.ListRoles(roles_pb2.ListRolesRequest(name="viewer"), metadata=admin).roles[0]
    binding = bindings.CreateRoleBinding(
        role_bindings_pb2.CreateRoleBindingRequest(
            parent=group.uid,
            role_binding=role_bindings_pb2.RoleBinding(identity_uid=identity.uid, role_uid=viewer.uid),
        ),
        metadata=admin,
    )
    seen["binding"] = {"identity": binding.identity.uid == identity.uid, "role": binding.role.name}

    # One error: the group is not empty. The rich status is in the trailing metadata.
    try:
        groups.DeleteGroup(groups_pb2.DeleteGroupRequest(uid=group.uid), metadata=admin)
        seen["error"] = None
    except grpc.RpcError as e:
        raw = dict(e.trailing_metadata() or ()).get("grpc-status-details-bin")
        status = status_pb2.Status.FromString(raw)
        details = []
        for any_ in status.details:
            if any_.Is(error_details_pb2.PreconditionFailure.DESCRIPTOR):
                pf = error_details_pb2.PreconditionFailure()
                any_.Unpack(pf)
                details.append({"violations": [v.type for v in pf.violations]})
            else:
                details.append(any_.type_url.rsplit(".", 1)[-1])
        seen["error"] = {"code": e.code().name, "status": status.code, "details": details}

    # The exchange: a workload token of the local issuer as the bearer token.
    req = urllib.request.Request(
        f"{ready['issuerUrl']}/token",
        data=json.dumps({"subject": "py-subject"}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    workload = json.loads(urllib.request.urlopen(req).read())["token"]
    sts = oidc_pb2_grpc.SecurityTokenServiceStub(channel)
    token = sts.Exchange(
        oidc_pb2.ExchangeRequest(aud=[ready["baseUrl"]], identity=identity.uid),
        metadata=(("authorization", f"Bearer {workload}"),),
    ).token
    seen["exchanged"] = groups.GetGroup(
        groups_pb2.GetGroupRequest(uid=group.uid), metadata=(("authorization", f"Bearer {token}"),)
    ).name

    bindings.DeleteRoleBinding(role_bindings_pb2.DeleteRoleBindingRequest(uid=binding.uid), metadata=admin)
    identities.DeleteIdentity(identities_pb2.DeleteIdentityRequest(uid=identity.uid), metadata=admin)
    groups.DeleteGroup(groups_pb2.DeleteGroupRequest(uid=group.uid), metadata=admin)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
