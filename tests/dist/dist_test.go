// Package dist_test runs `make dist` for this machine's platform into a temp directory and
// checks the release as a user gets it: the archive and SBOMs match SHA256SUMS, the archive
// holds awf, awf-serve and the README, and the unpacked awf reports its version and runs
// `awf validate` and `awf run` of the hello workflow. (`make dist` builds four platforms; one is
// enough to test the recipe and keeps the test to about a minute.)
package dist_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

func TestMakeDist(t *testing.T) {
	if raceBuild {
		testkit.Skip(t, "under -race: this test only runs make and other processes, which make test already covers")
	}
	dist := t.TempDir()
	name := "awf_" + runtime.GOOS + "_" + runtime.GOARCH
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	mk := exec.CommandContext(ctx, "make", "dist", "DIST="+dist, "PLATFORMS="+runtime.GOOS+"/"+runtime.GOARCH, "VERSION=v9.8.7-test")
	mk.Dir = testkit.RepoRoot()
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make dist: %v\n%s", err, out)
	}
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			t.Fatalf("SHA256SUMS line %q", line)
		}
		listed[f[1]] = f[0]
	}
	for _, want := range []string{name + ".tar.gz", "awf.cdx.json", "awf-serve.cdx.json"} {
		data, err := os.ReadFile(filepath.Join(dist, want))
		if err != nil {
			t.Fatalf("%s missing: %v", want, err)
		}
		sum := sha256.Sum256(data)
		if listed[want] != hex.EncodeToString(sum[:]) {
			t.Fatalf("%s: SHA256SUMS says %q, the file hashes to %x", want, listed[want], sum)
		}
	}
	var sbom struct {
		BOMFormat, SpecVersion string
		Components             []struct{ Name string }
	}
	b, _ := os.ReadFile(filepath.Join(dist, "awf.cdx.json"))
	if err := json.Unmarshal(b, &sbom); err != nil || sbom.BOMFormat != "CycloneDX" || !hasComponent(sbom.Components, "go.opentelemetry.io/otel") {
		t.Fatalf("awf.cdx.json is not a CycloneDX SBOM of awf's modules (%v): %.300s", err, b)
	}

	unpacked := t.TempDir()
	if out, err := exec.Command("tar", "-xzf", filepath.Join(dist, name+".tar.gz"), "-C", unpacked).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	bin := filepath.Join(unpacked, name)
	for _, f := range []string{"awf", "awf-serve", "README.md"} {
		if _, err := os.Stat(filepath.Join(bin, f)); err != nil {
			t.Fatalf("the archive lacks %s", f)
		}
	}
	if out, _ := exec.Command("file", filepath.Join(bin, "awf")).Output(); len(out) > 0 && !bytes.Contains(out, []byte("statically linked")) {
		t.Fatalf("awf is not static: %s", out)
	}
	project := t.TempDir()
	hello, _ := os.ReadFile(filepath.Join(testkit.RepoRoot(), "examples", "workflows", "hello.yaml"))
	_ = os.MkdirAll(filepath.Join(project, ".awf", "workflows"), 0o755)
	_ = os.WriteFile(filepath.Join(project, ".awf", "workflows", "hello.yaml"), hello, 0o644)
	run := func(args ...string) string {
		cmd := exec.Command(filepath.Join(bin, "awf"), args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "TMPDIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("awf %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	var v struct{ Version, Commit, Platform string }
	if err := json.Unmarshal([]byte(run("version", "--format", "json")), &v); err != nil || v.Version != "v9.8.7-test" || v.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Fatalf("awf version: %+v (%v)", v, err)
	}
	if out := run("validate", "hello"); !strings.Contains(out, "is valid") {
		t.Fatal(out)
	}
	if out := run("run", "hello", "--input", "name=release"); !strings.Contains(out, "Hello, release!") {
		t.Fatal(out)
	}
}

func hasComponent(cs []struct{ Name string }, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}
