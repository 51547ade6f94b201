package promptfile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestReadConfined(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "in.txt"), []byte("inside"), 0o600))
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o700))
	must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o600))
	must(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "link")))
	must(t, os.Symlink(outside, filepath.Join(root, "sub", "dirlink")))
	f := Files{Noun: "file", Code: fault.UserTemplateReadFile}
	tests := []struct{ name, path, want, err string }{
		{"relative", "in.txt", "inside", ""},
		{"dot-dot back inside", "sub/../in.txt", "inside", ""},
		{"absolute inside", filepath.Join(root, "in.txt"), "inside", ""},
		{"dot-dot out", "../" + filepath.Base(outside) + "/secret", "", "outside the project root"},
		{"absolute outside", filepath.Join(outside, "secret"), "", "outside the project root"},
		{"symlinked file", "link", "", "outside the project root"},
		{"symlinked directory", "sub/dirlink/secret", "", "outside the project root"},
		{"missing", "nope.txt", "", "file " + filepath.Join(root, "nope.txt") + " does not exist"},
		{"a directory", "sub", "", "is a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.ReadConfined(context.Background(), root, tc.path)
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Fatalf("got %q, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || fault.CodeOf(err) != fault.UserTemplateReadFile || got != "" {
				t.Fatalf("got %q, %v; want an error with %q", got, err, tc.err)
			}
		})
	}
}

func TestFilesRenamesThePromptError(t *testing.T) {
	f := Files{Noun: "script file", Code: fault.UserWorkflowScriptFile}
	_, err := f.ReadPrompt(context.Background(), filepath.Join(t.TempDir(), "x.sh"))
	var fe *fault.Error
	if !asFault(err, &fe) || fe.Code != fault.UserWorkflowScriptFile || !strings.HasPrefix(fe.Message, "script file ") || strings.Contains(fe.Hint, "prompt") {
		t.Fatalf("err = %v", err)
	}
	if _, err := (Files{}).ReadPrompt(context.Background(), "/nonexistent/x"); fault.CodeOf(err) != fault.UserAgentPromptFile {
		t.Errorf("default code: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func asFault(err error, fe **fault.Error) bool {
	e, ok := err.(*fault.Error)
	*fe = e
	return ok
}
