// Package image_test builds the container image with `make image` and runs it with podman as a
// user would: `awf validate` and `awf run` of the hello workflow and of an agent step against the
// scripted demo model, as the image's non-root user, with the workspace and its runs on a mounted
// volume; and a Bash call under the kernel sandbox, which either confines the call or says why
// it could not. It needs podman (Debian's, with runc: its default crun fails on these VMs); it
// skips saying so without it, and fails instead when AWF_REQUIRE_PODMAN=1 (.ci/run installs it).
package image_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/tests/testkit"
)

// podman runs podman with args, bounded.
func podman(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "podman", args...).CombinedOutput()
	return string(out), err
}

// image builds and loads the image once per test run and returns its name.
func image(t *testing.T) string {
	t.Helper()
	if raceBuild {
		testkit.Skip(t, "under -race: this test only runs make and other processes, which make test already covers")
	}
	if _, err := exec.LookPath("podman"); err != nil {
		if os.Getenv("AWF_REQUIRE_PODMAN") == "1" {
			t.Fatal("podman is not installed but AWF_REQUIRE_PODMAN=1 (.ci/run installs it with apt)")
		}
		testkit.Skip(t, "podman is not installed (apt-get install podman runc); the image is not tested")
	}
	if os.Geteuid() != 0 {
		testkit.Skip(t, "not root: Debian's podman runs these containers as root here (rootless podman needs subuids this machine does not set up)")
	}
	dir := t.TempDir()
	var r [4]byte
	_, _ = rand.Read(r[:])
	tag := "localhost/awf-test:" + hex.EncodeToString(r[:])
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	make := exec.CommandContext(ctx, "make", "image", "IMAGE="+filepath.Join(dir, "awf.tar"), "IMAGE_ROOT="+filepath.Join(dir, "root"), "IMAGE_TAG="+tag)
	make.Dir = testkit.RepoRoot()
	if out, err := make.CombinedOutput(); err != nil {
		t.Fatalf("make image: %v\n%s", err, out)
	}
	out, err := podman(t, "load", "-i", filepath.Join(dir, "awf.tar"))
	if err != nil || !strings.Contains(out, "Loaded image: "+tag) {
		t.Fatalf("podman load: %v\n%s", err, out)
	}
	t.Cleanup(func() { _, _ = podman(t, "rmi", "-f", tag) })
	return tag
}

// container runs the image with the workspace mounted; extra goes before the image name.
func container(t *testing.T, tag, workspace string, extra []string, args ...string) (string, error) {
	t.Helper()
	base := []string{"--runtime", "runc", "run", "--rm", "--network", "none",
		"--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096", "-v", workspace + ":/workspace"}
	return podman(t, append(append(append(base, extra...), tag), args...)...)
}

// workspace is a project the container's user (uid 1000) may write.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 1000, 1000)
	}); err != nil {
		t.Fatal(err)
	}
	return dir
}

const agentWorkflow = `name: explore
states:
  initial: explore
  explore:
    type: agent
    provider: openai_compatible
    prompt: look around, then clean up with Bash
    options: {max_turns: 10, request_timeout: 1m}
    timeout: 2m
    mcp_proxy:
      enable: true
      intent: {allow: [read, write]}
    on_success: done
    on_failure: failed
  done: {type: terminal, status: success}
  failed: {type: terminal, status: failure}
`

var runID = regexp.MustCompile(`\(run ([0-9a-f-]+)\)`)

func TestImage(t *testing.T) {
	tag := image(t)
	hello, _ := os.ReadFile(filepath.Join(testkit.RepoRoot(), "examples", "workflows", "hello.yaml"))
	model := filepath.Join(t.TempDir(), "demo-model")
	if err := testkit.GoBuild(model, "./examples/demo-model"); err != nil {
		t.Fatal(err)
	}
	modelBin, _ := os.ReadFile(model)
	ws := workspace(t, map[string]string{".awf/workflows/hello.yaml": string(hello), ".awf/workflows/explore.yaml": agentWorkflow,
		"README.md": "# awf in a container\n", "bin/demo-model": string(modelBin)})

	t.Run("non-root user, git, shell", func(t *testing.T) {
		out, err := container(t, tag, ws, []string{"--entrypoint", "/bin/sh"}, "-c", "id -u; pwd; git --version")
		if err != nil || !strings.HasPrefix(out, "1000\n/workspace\ngit version ") {
			t.Fatalf("%v\n%s", err, out)
		}
	})
	t.Run("validate and run hello on the volume", func(t *testing.T) {
		if out, err := container(t, tag, ws, nil, "validate", "hello"); err != nil || !strings.Contains(out, "is valid") {
			t.Fatalf("validate: %v\n%s", err, out)
		}
		out, err := container(t, tag, ws, nil, "run", "hello", "--input", "name=pod")
		m := runID.FindStringSubmatch(out)
		if err != nil || m == nil || !strings.Contains(out, "Hello, pod!") {
			t.Fatalf("run: %v\n%s", err, out)
		}
		state := readState(t, filepath.Join(ws, ".awf", "runs", m[1], "state.json"))
		if state.Status != runrecord.Succeeded {
			t.Fatalf("the run's state on the volume says %q", state.Status)
		}
	})
	t.Run("agent step through the proxy", func(t *testing.T) {
		script := `bin/demo-model --addr 127.0.0.1:0 >/tmp/model.log 2>&1 &
for i in $(seq 100); do url="$(sed -n 's/^listening on //p' /tmp/model.log)"; [ -n "$url" ] && break; sleep 0.1; done
OPENAI_BASE_URL="$url" OPENAI_MODEL=awf-demo awf run explore && awf activity list`
		out, err := container(t, tag, ws, []string{"--entrypoint", "/bin/sh"}, "-c", script)
		m := runID.FindStringSubmatch(out)
		if err != nil || m == nil {
			t.Fatalf("%v\n%s", err, out)
		}
		act, err := os.ReadFile(filepath.Join(ws, ".awf", "runs", m[1], "activity.jsonl"))
		if err != nil || !strings.Contains(string(act), `"tool":"Read"`) || !strings.Contains(string(act), `"tool":"Grep"`) {
			t.Fatalf("the tool calls are not on the volume (%v):\n%s\n%s", err, act, out)
		}
	})
	t.Run("sandbox confines or says why not", func(t *testing.T) {
		call := []string{"call", "tool-destructive", "Bash", "--args", `{"command":"touch /home/awf/outside; echo rc=$?"}`}
		// Podman masks parts of /proc, so the sandbox cannot mount its own: it must say so.
		if _, err := container(t, tag, ws, nil, call...); err != nil {
			t.Fatal(err)
		}
		sb := lastSandbox(t, ws)
		if sb.Enforced || !strings.Contains(sb.Reason, "awf sandbox:") {
			t.Fatalf("under podman's default /proc masks the sandbox should say why it is not enforced: %+v", sb)
		}
		t.Logf("default podman: not enforced: %s", sb.Reason)
		// With /proc unmasked (docs/guide/ci.md) it confines the call.
		out, err := container(t, tag, ws, []string{"--security-opt", "unmask=/proc/*"}, call...)
		if sb := lastSandbox(t, ws); err != nil || !sb.Enforced || !strings.Contains(out, "rc=1") {
			t.Fatalf("with /proc unmasked the call should be confined (%v): %+v\n%s", err, sb, out)
		}
	})
}

type sandbox struct {
	Enforced bool   `json:"enforced"`
	Reason   string `json:"reason"`
}

// lastSandbox is the sandbox field of the last `awf call` record.
func lastSandbox(t *testing.T, ws string) sandbox {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, ".awf", "runs", "cli", "activity.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var rec struct{ Sandbox *sandbox }
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil || rec.Sandbox == nil {
		t.Fatalf("no sandbox in the record (%v): %s", err, lines[len(lines)-1])
	}
	return *rec.Sandbox
}

func readState(t *testing.T, file string) struct{ Status string } {
	t.Helper()
	var s struct{ Status string }
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(b, &s)
	return s
}
