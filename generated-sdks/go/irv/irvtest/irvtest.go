// Package irvtest starts the IRV emulator (`irv-emulator`, a self-contained executable in every
// release) for a Go test: on a free loopback port, with a fresh data directory, seeded from a
// fixtures file when asked, and stopped with its data removed through t.Cleanup, even when the test
// fails.
//
//	func TestOrg(t *testing.T) {
//		irv := irvtest.Start(t)
//		irv.Setenv(t) // IRV_BASE_URL, IRV_AUTH_URL, IRV_TOKEN for the provider
//		// … run the program with the Automation API; read the org back at irv.BaseURL …
//	}
//
// The executable is IRV_EMULATOR when set, else `irv-emulator` from PATH (see docs/testing.md).
//
// This file is hand-written: its source is testing/go/irvtest in the pulumi-irv repository, copied
// into the Go SDK's module by the SDK build (npm run build:sdks).
package irvtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Emulator is a running emulator: what its ready line said.
type Emulator struct {
	// BaseURL is the API base URL (irv:baseUrl, IRV_BASE_URL).
	BaseURL string `json:"baseUrl"`
	// AuthURL is the token-exchange base URL (irv:authUrl, IRV_AUTH_URL).
	AuthURL string `json:"authUrl"`
	// IssuerURL is the emulator's local OIDC issuer, which mints workload tokens for tests.
	IssuerURL string `json:"issuerUrl"`
	// OrgUID is the root organization's uid.
	OrgUID string `json:"orgUid"`
	// AdminToken is a bearer token of the organization's owner (irv:token, IRV_TOKEN).
	AdminToken string `json:"adminToken"`
	// DataDir holds the emulator's database; it is removed at cleanup.
	DataDir string `json:"-"`
}

// Env is the provider's environment for this emulator: IRV_BASE_URL, IRV_AUTH_URL and IRV_TOKEN
// (e.g. for auto.EnvVars of an Automation API workspace).
func (e *Emulator) Env() map[string]string {
	return map[string]string{
		"IRV_BASE_URL": e.BaseURL,
		"IRV_AUTH_URL": e.AuthURL,
		"IRV_TOKEN":    e.AdminToken,
	}
}

// Setenv sets Env() for the rest of the test with t.Setenv (restored at cleanup).
func (e *Emulator) Setenv(t testing.TB) {
	t.Helper()
	for k, v := range e.Env() {
		t.Setenv(k, v)
	}
}

// Config is the stack configuration for this emulator, keys in the provider's `irv` namespace;
// irv:token is the one to store as a secret.
func (e *Emulator) Config() map[string]string {
	return map[string]string{
		"irv:baseUrl": e.BaseURL,
		"irv:authUrl": e.AuthURL,
		"irv:token":   e.AdminToken,
	}
}

type options struct {
	executable string
	fixtures   string
	args       []string
	timeout    time.Duration
}

// Option changes how Start runs the emulator.
type Option func(*options)

// WithExecutable runs this emulator executable instead of IRV_EMULATOR or `irv-emulator` from PATH.
func WithExecutable(path string) Option { return func(o *options) { o.executable = path } }

// WithFixtures seeds the new database from a JSON fixtures file (the emulator's --fixtures).
func WithFixtures(path string) Option { return func(o *options) { o.fixtures = path } }

// WithArgs passes more of the emulator's flags, e.g. "--faults", "503=0.1".
func WithArgs(args ...string) Option {
	return func(o *options) { o.args = append(o.args, args...) }
}

// WithStartTimeout bounds the wait for the ready line (default 30 seconds).
func WithStartTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// Executable is the emulator Start runs by default: IRV_EMULATOR when set, else `irv-emulator`
// from PATH.
func Executable() (string, error) {
	if exe := os.Getenv("IRV_EMULATOR"); exe != "" {
		return exe, nil
	}
	exe, err := exec.LookPath("irv-emulator")
	if err != nil {
		return "", errors.New("irvtest: no irv-emulator on PATH and IRV_EMULATOR is not set: " +
			"unpack irv-emulator-v<version>-<os>-<arch>.tar.gz from the pulumi-irv release onto PATH")
	}
	return exe, nil
}

// Start starts the emulator and stops it, then removes its data directory, when the test ends
// (t.Cleanup). It fails the test with the emulator's own message when it cannot start.
func Start(t testing.TB, opts ...Option) *Emulator {
	t.Helper()
	o := options{timeout: 30 * time.Second}
	for _, opt := range opts {
		opt(&o)
	}
	exe := o.executable
	if exe == "" {
		var err error
		if exe, err = Executable(); err != nil {
			t.Fatal(err)
		}
	}
	dataDir, err := os.MkdirTemp("", "irv-emulator-")
	if err != nil {
		t.Fatalf("irvtest: %v", err)
	}
	args := []string{"--host", "127.0.0.1", "--port", "0", "--data", filepath.Join(dataDir, "irv.db")}
	if o.fixtures != "" {
		args = append(args, "--fixtures", o.fixtures)
	}
	args = append(args, o.args...)
	cmd := exec.Command(exe, args...)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		_ = os.RemoveAll(dataDir)
		t.Fatalf("irvtest: %v", err)
	}
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dataDir)
		t.Fatalf("irvtest: starting %s: %v", exe, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		stop(cmd, exited)
		if err := os.RemoveAll(dataDir); err != nil {
			t.Errorf("irvtest: removing %s: %v", dataDir, err)
		}
	})

	lines := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		scanner.Buffer(make([]byte, 64*1024), 1024*1024)
		if scanner.Scan() {
			lines <- scanner.Text()
		}
		close(lines)
		// Keep draining so that the emulator never blocks on a full pipe.
		for scanner.Scan() {
		}
	}()
	select {
	case line, ok := <-lines:
		if !ok {
			<-exited
			t.Fatalf("irvtest: %s exited before it was ready: %s", exe, strings.TrimSpace(stderr.String()))
		}
		e := &Emulator{DataDir: dataDir}
		if err := json.Unmarshal([]byte(line), e); err != nil || e.BaseURL == "" {
			t.Fatalf("irvtest: %s printed %q, not its ready line", exe, line)
		}
		return e
	case <-time.After(o.timeout):
		t.Fatalf("irvtest: %s was not ready after %s: %s", exe, o.timeout, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// stop asks the emulator to close (SIGTERM) and kills it if it has not exited within 10 seconds.
func stop(cmd *exec.Cmd, exited <-chan struct{}) {
	select {
	case <-exited:
		return
	default:
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		_ = cmd.Process.Kill() // no SIGTERM on Windows
	}
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
}

// lockedBuffer is the emulator's stderr, written by exec's copier while a failing test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// String names the emulator in test logs without its admin token.
func (e *Emulator) String() string {
	return fmt.Sprintf("irv-emulator at %s (org %s)", e.BaseURL, e.OrgUID)
}
