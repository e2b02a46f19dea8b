// pulumi-language-go (pulumi-irv's test-only build) serves pulumirpc.LanguageRuntime for Go programs:
// it builds the program with the machine's `go` and runs the binary with the engine's settings in
// the environment the Go SDK reads (sdk/go/pulumi/run.go). Pulumi's own Go host is not served by the
// Go module proxy here, so the e2e tests use this one; users run Pulumi's (it ships with the CLI).
//
//	pulumi-language-go [--tracing ADDR] [-v=N] [--logtostderr] ENGINE_ADDRESS
//
// It does what preview, up, refresh, destroy, config and stack outputs need: GetPluginInfo,
// Handshake, GetRequiredPlugins/GetRequiredPackages (the `pulumi-plugin.json` at the root of each
// module the program requires), InstallDependencies (`go mod download`), Run, About and
// GetProgramDependencies. Everything else answers Unimplemented.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

const hostName = "pulumi-language-go"

// version is what GetPluginInfo reports; the build sets it to the SDK version it was built against.
var version = "0.0.0-dev"

func main() {
	engineAddress := parseArgs(os.Args[1:])
	host := &goHost{engineAddress: engineAddress}

	cancel := make(chan bool)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-signals
		host.stopPrograms()
		close(cancel)
	}()

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(s, host)
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: could not start the language host: %v\n", hostName, err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", hostName, err)
		os.Exit(1)
	}
}

// parseArgs returns the engine address: the last argument that is not a flag. The engine passes its
// logging and tracing flags first (`--tracing` takes a value); none of them change what this host does.
func parseArgs(args []string) string {
	engine := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--tracing" || a == "-tracing":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			engine = a
		}
	}
	return engine
}

type goHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	running       map[*exec.Cmd]struct{}
}

func (h *goHost) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

func (h *goHost) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *goHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// programDir is where the program's go.mod is: the program directory of the request, else its pwd.
func programDir(info *pulumirpc.ProgramInfo, pwd string) string {
	if info != nil && info.GetProgramDirectory() != "" {
		return info.GetProgramDirectory()
	}
	if pwd != "" {
		return pwd
	}
	wd, _ := os.Getwd()
	return wd
}

// programBinary is where a program directory's binary is built: kept between runs, one directory per
// program directory under the temp dir, so that `go build -o` finds it up to date and skips the link
// (4-5 s of CPU for a program on the SDK, at every preview and up; upstream's host has the
// `buildTarget` option for this). go build replaces the file by a rename, so a run of the old binary is
// unaffected. Entries unused for two hours (the temp program directories of finished tests) are
// removed by pruneProgramBinaries.
func programBinary(dir string) (string, error) {
	root := filepath.Join(os.TempDir(), "pulumi-irv-go-programs")
	sum := sha256.Sum256([]byte(dir))
	entry := filepath.Join(root, hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(entry, 0o700); err != nil {
		return "", err
	}
	now := time.Now()
	_ = os.Chtimes(entry, now, now)
	pruneProgramBinaries(root, filepath.Base(entry), now)
	return filepath.Join(entry, "program"), nil
}

// pruneStamp is the file in the cache whose modification time is the last prune; its leading dot
// keeps it apart from the entries, which are hex.
const pruneStamp = ".pruned"

// pruneProgramBinaries removes the cache's entries unused for two hours, except `keep`. An e2e run
// starts many programs one after another, each a Run; an entry only becomes prunable after two hours,
// so walking the cache more than once an hour finds nothing new: the stamp says when the last walk was.
// Two hosts that both see an old stamp both walk, which is harmless (a removal of what is gone is a
// no-op); the stamp is touched first so that the window is short.
func pruneProgramBinaries(root, keep string, now time.Time) {
	stamp := filepath.Join(root, pruneStamp)
	if info, err := os.Stat(stamp); err == nil && now.Sub(info.ModTime()) < time.Hour {
		return
	}
	// A stamp that cannot be written only costs the next Run a walk: prune anyway.
	if err := os.WriteFile(stamp, nil, 0o600); err == nil {
		_ = os.Chtimes(stamp, now, now)
	}
	others, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, other := range others {
		if other.Name() == keep || other.Name() == pruneStamp {
			continue
		}
		info, err := other.Info()
		if err == nil && now.Sub(info.ModTime()) > 2*time.Hour {
			_ = os.RemoveAll(filepath.Join(root, other.Name()))
		}
	}
}

// pluginManifest is the part of a module's `pulumi-plugin.json` that names the plugin it needs.
type pluginManifest struct {
	Resource bool   `json:"resource"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	Server   string `json:"server"`
}

// requiredPackages reads `pulumi-plugin.json` at the root of every module that provides a package
// the program imports (`go list -deps`; a `replace` to a directory gives that directory). A module
// without one needs no plugin, so a program that uses no provider SDK needs none.
func requiredPackages(dir string) ([]*pulumirpc.PackageDependency, error) {
	out, err := goCommand(dir, "list", "-deps", "-f", "{{with .Module}}{{.Path}}\t{{.Dir}}{{end}}", ".").Output()
	if err != nil {
		return nil, fmt.Errorf("listing the packages of the Go program in %s failed (%s); check its go.mod "+
			"and run `go mod download` there", dir, commandError(err))
	}
	seen := map[string]bool{}
	var packages []*pulumirpc.PackageDependency
	for _, line := range strings.Split(string(out), "\n") {
		modPath, modDir, ok := strings.Cut(line, "\t")
		if !ok || modDir == "" || seen[modDir] {
			continue
		}
		seen[modDir] = true
		data, err := os.ReadFile(filepath.Join(modDir, "pulumi-plugin.json"))
		if err != nil {
			continue
		}
		var manifest pluginManifest
		if err := json.Unmarshal(data, &manifest); err != nil {
			return nil, fmt.Errorf("%s/pulumi-plugin.json of module %s is not JSON: %w", modDir, modPath, err)
		}
		if !manifest.Resource || manifest.Name == "" {
			continue
		}
		packages = append(packages, &pulumirpc.PackageDependency{
			Name:    manifest.Name,
			Kind:    "resource",
			Version: manifest.Version,
			Server:  manifest.Server,
		})
	}
	return packages, nil
}

func (h *goHost) GetRequiredPackages(
	_ context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	packages, err := requiredPackages(programDir(req.GetInfo(), ""))
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

//nolint:staticcheck // the engine still calls the deprecated RPC for older flows.
func (h *goHost) GetRequiredPlugins(
	_ context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	packages, err := requiredPackages(programDir(req.GetInfo(), req.GetPwd()))
	if err != nil {
		return nil, err
	}
	plugins := make([]*pulumirpc.PluginDependency, 0, len(packages))
	for _, p := range packages {
		plugins = append(plugins, &pulumirpc.PluginDependency{
			Name: p.Name, Kind: p.Kind, Version: p.Version, Server: p.Server,
		})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// InstallDependencies downloads the program's modules (`go mod download`), streaming go's output.
func (h *goHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest,
	stream grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	dir := programDir(req.GetInfo(), req.GetDirectory())
	cmd := goCommand(dir, "mod", "download")
	cmd.Stdout = streamWriter(func(b []byte) error {
		return stream.Send(&pulumirpc.InstallDependenciesResponse{Stdout: b})
	})
	cmd.Stderr = streamWriter(func(b []byte) error {
		return stream.Send(&pulumirpc.InstallDependenciesResponse{Stderr: b})
	})
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("`go mod download` in %s failed: %w", dir, err)
	}
	return nil
}

type streamWriter func([]byte) error

func (w streamWriter) Write(b []byte) (int, error) {
	if err := w(append([]byte(nil), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Run builds the program (see programBinary) and runs it with the engine's settings. The
// program's output goes to this host's stdout and stderr, which the engine shows to the user.
func (h *goHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	dir := programDir(req.GetInfo(), req.GetPwd())
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf(
			"no go.mod in %s: a Go program is a module (run `go mod init` there)", dir)}, nil
	}
	binary, err := programBinary(dir)
	if err != nil {
		return nil, err
	}

	build := goCommand(dir, "build", "-o", binary, ".")
	// The compiler's messages go into the error alone: the engine shows it once, under the stack.
	var buildOut bytes.Buffer
	build.Stdout = &buildOut
	build.Stderr = &buildOut
	if err := h.runTracked(build); err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("`go build` of the program in %s failed (%s):\n%s",
			dir, commandError(err), strings.TrimSpace(buildOut.String()))}, nil
	}

	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	root := dir
	if info := req.GetInfo(); info != nil && info.GetRootDirectory() != "" {
		root = info.GetRootDirectory()
	}
	program := exec.Command(binary, req.GetArgs()...)
	program.Dir = dir
	program.Stdout = os.Stdout
	program.Stderr = os.Stderr
	program.Env = append(os.Environ(),
		"PULUMI_MONITOR="+req.GetMonitorAddress(),
		"PULUMI_ENGINE="+h.engine(),
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_ROOT_DIRECTORY="+root,
		"PULUMI_CONFIG="+string(configJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
		"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
	)
	err = h.runTracked(program)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exit) && exit.ExitCode() == constant.ExitStatusLoggedError:
		// The SDK has reported the error to the engine already.
		return &pulumirpc.RunResponse{Bail: true}, nil
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the Go program exited: %s", commandError(err))}, nil
	}
}

// runTracked runs a child the host stops when it is told to stop itself.
func (h *goHost) runTracked(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	h.mu.Lock()
	if h.running == nil {
		h.running = map[*exec.Cmd]struct{}{}
	}
	h.running[cmd] = struct{}{}
	h.mu.Unlock()
	err := cmd.Wait()
	h.mu.Lock()
	delete(h.running, cmd)
	h.mu.Unlock()
	return err
}

func (h *goHost) stopPrograms() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for cmd := range h.running {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	}
}

func (h *goHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	goExe, err := exec.LookPath("go")
	if err != nil {
		return nil, errors.New("no `go` on PATH: install Go to run Go programs")
	}
	out, err := exec.Command(goExe, "env", "GOVERSION").Output()
	if err != nil {
		return nil, fmt.Errorf("`go env GOVERSION` failed: %s", commandError(err))
	}
	return &pulumirpc.AboutResponse{
		Executable: goExe,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "go"),
	}, nil
}

// GetProgramDependencies lists the program's go.mod requirements; indirect ones only when the
// engine asks for transitive dependencies.
func (h *goHost) GetProgramDependencies(
	_ context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := programDir(req.GetInfo(), req.GetPwd())
	out, err := goCommand(dir, "mod", "edit", "-json").Output()
	if err != nil {
		return nil, fmt.Errorf("reading %s/go.mod failed: %s", dir, commandError(err))
	}
	var mod struct {
		Require []struct {
			Path     string
			Version  string
			Indirect bool
		}
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		return nil, fmt.Errorf("reading `go mod edit -json` of %s: %w", dir, err)
	}
	deps := []*pulumirpc.DependencyInfo{}
	for _, r := range mod.Require {
		if r.Indirect && !req.GetTransitiveDependencies() {
			continue
		}
		deps = append(deps, &pulumirpc.DependencyInfo{Name: r.Path, Version: r.Version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// goCommand is `go ARGS…` in dir with the host's environment (GOFLAGS, GOPROXY… pass through).
func goCommand(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	return cmd
}

// commandError says how a command failed, with the end of its stderr when it was captured.
func commandError(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) && len(exit.Stderr) > 0 {
		return fmt.Sprintf("%v: %s", err, strings.TrimSpace(string(exit.Stderr)))
	}
	return err.Error()
}
