package pluginv1_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// protocVersionLine matches the header line naming the protoc version, the one part of the
// output that depends on the machine rather than on the .proto file and the pinned plugins.
var protocVersionLine = regexp.MustCompile(`(?m)^// (\t|- )protoc +v[^\n]*$`)

// TestGeneratedCodeIsFresh regenerates the code with the pinned protoc plugins into a temp dir
// and compares it with the committed files, so a .proto edit without `make proto` fails CI.
func TestGeneratedCodeIsFresh(t *testing.T) {
	if testing.Short() {
		testkit.Skip(t, "builds the protoc plugins; skipped with -short")
	}
	if _, err := exec.LookPath("protoc"); err != nil {
		testkit.Skip(t, "protoc is not installed (apt-get install -y protobuf-compiler); cannot check that proto/pluginv1 is up to date")
	}
	root := repoRoot(t)
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator),
		"google.golang.org/protobuf/cmd/protoc-gen-go", "google.golang.org/grpc/cmd/protoc-gen-go-grpc")
	build.Dir = filepath.Join(root, "tools")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the pinned protoc plugins from tools/go.mod: %v\n%s", err, out)
	}
	out := t.TempDir()
	gen := exec.Command("sh", "proto/generate.sh", bin, out)
	gen.Dir = root
	if msg, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("proto/generate.sh: %v\n%s", err, msg)
	}

	fresh := generatedFiles(t, filepath.Join(out, "proto", "pluginv1"))
	committed := generatedFiles(t, filepath.Join(root, "proto", "pluginv1"))
	if len(fresh) == 0 {
		t.Fatal("proto/generate.sh produced no .pb.go file")
	}
	for name, want := range fresh {
		got, ok := committed[name]
		if !ok {
			t.Errorf("proto/pluginv1/%s is missing: run `make proto` and commit the result", name)
			continue
		}
		if !bytes.Equal(normalize(got), normalize(want)) {
			t.Errorf("proto/pluginv1/%s is stale: run `make proto` and commit the result", name)
		}
	}
	for name := range committed {
		if _, ok := fresh[name]; !ok {
			t.Errorf("proto/pluginv1/%s is no longer generated: delete it", name)
		}
	}
}

// generatedFiles reads every *.pb.go file of dir.
func generatedFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(dir, "*.pb.go"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(matches)
	files := map[string][]byte{}
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(m)] = b
	}
	return files
}

func normalize(b []byte) []byte {
	return protocVersionLine.ReplaceAll(b, []byte("// protoc (version elided)"))
}

func TestNormalizeElidesOnlyTheProtocVersion(t *testing.T) {
	in := "// \tprotoc-gen-go v1.36.12\n// \tprotoc        v3.21.12\n// - protoc             v3.21.12\nx := 1\n"
	want := "// \tprotoc-gen-go v1.36.12\n// protoc (version elided)\n// protoc (version elided)\nx := 1\n"
	if got := string(normalize([]byte(in))); got != want {
		t.Fatalf("normalize:\n%q\nwant\n%q", got, want)
	}
}

// repoRoot is the module root, two directories above this file.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}
