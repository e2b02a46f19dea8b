"""The program, run by the Automation API against a fresh emulator (the ``irv_emulator`` fixture of
pulumi-irv-testing): up, the tree read back from the emulator's API, destroy, and nothing left. The
emulator and its data go at teardown, whether the test passed or failed."""

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from pulumi import automation as auto
from pulumi_irv_testing import Emulator

from org_program import program


def get(irv: Emulator, path: str) -> Any:
    request = urllib.request.Request(irv.base_url + path, headers={"Authorization": f"Bearer {irv.admin_token}"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_org_against_the_emulator(irv_emulator: Emulator, tmp_path: Path) -> None:
    stack = auto.create_or_select_stack(
        stack_name="test",
        project_name="irv-org",
        program=lambda: program(irv_emulator.org_uid),
        opts=auto.LocalWorkspaceOptions(
            project_settings=auto.ProjectSettings(
                name="irv-org", runtime="python", backend=auto.ProjectBackend(url=tmp_path.as_uri())
            ),
            secrets_provider="passphrase",
            env_vars={"PULUMI_CONFIG_PASSPHRASE": "test-only"},
        ),
    )
    irv_emulator.configure_stack(stack)
    # A receiver on loopback, subscribed to the organization's webhooks (unsubscribed at the end).
    sink = irv_emulator.subscribe()

    outputs = stack.up().outputs
    team = get(irv_emulator, "/iam/v2/groups/" + outputs["teamUid"].value)
    assert team["description"] == "The payments team"
    # A child's uid is its parent's uid, "/", and its own 16 hex digits.
    assert team["name"] == "team-payments"
    assert team["uid"].startswith(outputs["platformUid"].value + "/")
    ci = get(irv_emulator, "/iam/v2/identities/" + outputs["ciUid"].value)
    assert ci["claimMatch"]["subject"] == "repo:acme/payments:ref:refs/heads/main"
    # The webhook of the team group's creation: its subject is the group's uid, its body the group.
    created = sink.wait_for("dev.chainguard.api.iam.group.created.v1", subject=team["uid"])
    assert created.extensions["bodytype"] == "chainguard.platform.iam.v2beta1.Group"
    assert created.body["name"] == "team-payments"

    stack.destroy()
    with pytest.raises(urllib.error.HTTPError) as gone:
        get(irv_emulator, "/iam/v2/groups/" + outputs["teamUid"].value)
    assert gone.value.code == 404
    sink.wait_for("dev.chainguard.api.iam.group.deleted.v1", subject=team["uid"])
    sink.close()
