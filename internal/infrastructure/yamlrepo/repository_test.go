package yamlrepo

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// project creates a project root with the given files (relative path → content).
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const minimal = "name: x\nstates:\n  initial: d\n  d: {type: terminal}\n"

func TestList(t *testing.T) {
	root := project(t, map[string]string{
		".awf/workflows/review.yaml":      minimal,
		".awf/workflows/deploy.yml":       minimal,
		".awf/workflows/both.yaml":        minimal,
		".awf/workflows/both.yml":         minimal,
		".awf/workflows/notes.txt":        "not a workflow",
		".awf/workflows/.hidden.yaml":     minimal,
		".awf/workflows/sub.yaml/x.yaml":  minimal, // a directory named like a workflow
		".awf/workflows/nested/deep.yaml": minimal,
	})
	names, err := Repository{Root: root}.List()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"both", "deploy", "review"}; !reflect.DeepEqual(names, want) {
		t.Errorf("List = %v, want %v", names, want)
	}

	empty, err := Repository{Root: t.TempDir()}.List()
	if err != nil || len(empty) != 0 {
		t.Errorf("a project without .awf/workflows lists nothing without error, got %v, %v", empty, err)
	}
}

func TestResolve(t *testing.T) {
	root := project(t, map[string]string{
		".awf/workflows/review.yaml": minimal,
		".awf/workflows/deploy.yml":  minimal,
		"other/custom.yaml":          minimal,
	})
	repo := Repository{Root: root}
	dir := filepath.Join(root, ".awf", "workflows")
	abs := filepath.Join(root, "other", "custom.yaml")

	tests := []struct {
		in, want string
	}{
		{"review", filepath.Join(dir, "review.yaml")},
		{"deploy", filepath.Join(dir, "deploy.yml")},
		{abs, abs}, // a path is taken as given
		{"other/custom.yaml", filepath.Join(root, "other", "custom.yaml")},
		{"review.yaml", filepath.Join(dir, "review.yaml")},
	}
	for _, tt := range tests {
		got, err := repo.Resolve(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestResolveNotFound(t *testing.T) {
	root := project(t, map[string]string{
		".awf/workflows/review.yaml": minimal,
		".awf/workflows/deploy.yml":  minimal,
	})
	tests := []struct {
		repo     Repository
		in       string
		wantHint []string
	}{
		{Repository{Root: root}, "reveiw", []string{"did you mean 'review'?", "available workflows: deploy, review"}},
		{Repository{Root: root}, "zzz", []string{"available workflows: deploy, review"}},
		{Repository{Root: root}, "nowhere/revew.yaml", []string{"did you mean 'review'?"}},
		{Repository{Root: root}, "", []string{"available workflows"}},
		{Repository{Root: t.TempDir()}, "review", []string{"there are no workflows in", "review.yaml"}},
	}
	for _, tt := range tests {
		_, err := tt.repo.Resolve(tt.in)
		if fault.CodeOf(err) != fault.UserWorkflowNotFound {
			t.Errorf("Resolve(%q): code %q (%v), want %s", tt.in, fault.CodeOf(err), err, fault.UserWorkflowNotFound)
			continue
		}
		if fault.ExitCode(err) != fault.ExitUser {
			t.Errorf("Resolve(%q): exit code %d, want 1", tt.in, fault.ExitCode(err))
		}
		for _, h := range tt.wantHint {
			if !strings.Contains(err.Error(), h) {
				t.Errorf("Resolve(%q) = %v; want it to mention %q", tt.in, err, h)
			}
		}
		if strings.Contains(tt.in, "zzz") && strings.Contains(err.Error(), "did you mean") {
			t.Errorf("Resolve(%q) suggests a far-off name: %v", tt.in, err)
		}
	}
}

func TestRepositoryLoad(t *testing.T) {
	root := project(t, map[string]string{".awf/workflows/review.yaml": minimal})
	w, ds, err := Repository{Root: root}.Load("review")
	if err != nil || len(ds) != 0 || w.Name != "x" {
		t.Fatalf("Load = %+v, %v, %v", w, ds, err)
	}
	if _, _, err := (Repository{Root: root}).Load("nope"); fault.CodeOf(err) != fault.UserWorkflowNotFound {
		t.Errorf("Load(nope) error = %v", err)
	}
}

func TestLoadIOErrors(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, MaxFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, code, hint string
	}{
		{filepath.Join(dir, "missing.yaml"), fault.UserWorkflowNotFound, "check the path"},
		{dir, fault.UserWorkflowUnreadable, "give the path of a .yaml file"},
		{big, fault.UserWorkflowTooLarge, "not a data or log file"},
	}
	for _, tt := range tests {
		w, ds, err := Load(tt.path)
		if fault.CodeOf(err) != tt.code || w != nil || ds != nil {
			t.Errorf("Load(%s) = %v, %v, %v; want code %s", tt.path, w, ds, err, tt.code)
			continue
		}
		if !strings.Contains(err.Error(), tt.hint) {
			t.Errorf("Load(%s) error %q lacks hint %q", tt.path, err, tt.hint)
		}
	}
}
