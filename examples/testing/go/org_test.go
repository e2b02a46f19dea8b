package org

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv/irvtest"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

// The program, run by the Automation API against a fresh emulator: up, the tree read back from the
// emulator's API, destroy, and nothing left. The emulator and its data go at t.Cleanup.
func TestOrgAgainstTheEmulator(t *testing.T) {
	irv := irvtest.Start(t)
	ctx := context.Background()

	stack, err := auto.UpsertStackInlineSource(ctx, "test", "irv-org", Program(irv.OrgUID),
		auto.Project(workspace.Project{
			Name:    "irv-org",
			Runtime: workspace.NewProjectRuntimeInfo("go", nil),
			Backend: &workspace.ProjectBackend{URL: "file://" + t.TempDir()},
		}),
		auto.SecretsProvider("passphrase"),
		auto.EnvVars(map[string]string{"PULUMI_CONFIG_PASSPHRASE": "test-only"}),
	)
	if err != nil {
		t.Fatal(err)
	}
	for key, value := range irv.Config() {
		if err := stack.SetConfig(ctx, key, auto.ConfigValue{Value: value, Secret: key == "irv:token"}); err != nil {
			t.Fatal(err)
		}
	}

	// A receiver on loopback, subscribed to the organization's webhooks (removed at t.Cleanup).
	sink := irv.Subscribe(t, irv.OrgUID)

	up, err := stack.Up(ctx)
	if err != nil {
		t.Fatalf("up: %v", err)
	}
	teamUID := up.Outputs["teamUid"].Value.(string)
	var team struct {
		UID         string `json:"uid"`
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if status := get(t, irv, "/iam/v2/groups/"+teamUID, &team); status != http.StatusOK {
		t.Fatalf("GET the team group: HTTP %d", status)
	}
	// A child's uid is its parent's uid, "/", and its own 16 hex digits.
	platformUID := up.Outputs["platformUid"].Value.(string)
	if team.Name != "team-payments" || team.Description != "The payments team" || !strings.HasPrefix(team.UID, platformUID+"/") {
		t.Errorf("team group = %+v", team)
	}
	var ci struct {
		ClaimMatch struct {
			Issuer  string `json:"issuer"`
			Subject string `json:"subject"`
		} `json:"claimMatch"`
	}
	if status := get(t, irv, "/iam/v2/identities/"+up.Outputs["ciUid"].Value.(string), &ci); status != http.StatusOK {
		t.Fatalf("GET the CI identity: HTTP %d", status)
	}
	if ci.ClaimMatch.Subject != "repo:acme/payments:ref:refs/heads/main" {
		t.Errorf("the CI identity's claim match = %+v", ci.ClaimMatch)
	}
	// The webhook of the team group's creation: its subject is the group's uid, its body the group.
	created := sink.WaitForSubject(t, "dev.chainguard.api.iam.group.created.v1", teamUID, 10*time.Second)
	var body struct {
		Name string `json:"name"`
	}
	if err := created.Body(&body); err != nil || body.Name != "team-payments" ||
		created.Extensions["bodytype"] != "chainguard.platform.iam.v2beta1.Group" {
		t.Errorf("group created event = %+v (%v)", created, err)
	}

	if _, err := stack.Destroy(ctx); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if status := get(t, irv, "/iam/v2/groups/"+teamUID, nil); status != http.StatusNotFound {
		t.Errorf("GET the team group after destroy: HTTP %d, want 404", status)
	}
	sink.WaitForSubject(t, "dev.chainguard.api.iam.group.deleted.v1", teamUID, 10*time.Second)
}

// get reads one API path with the admin token into out, returning the HTTP status.
func get(t *testing.T, irv *irvtest.Emulator, path string, out any) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, irv.BaseURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+irv.AdminToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil && res.StatusCode == http.StatusOK {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(fmt.Errorf("GET %s: %w", path, err))
		}
	}
	return res.StatusCode
}
