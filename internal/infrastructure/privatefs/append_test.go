package privatefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenAppendRefusesLinks(t *testing.T) {
	outside := t.TempDir()
	marker := filepath.Join(outside, "marker")
	if err := os.WriteFile(marker, []byte("untouched"), 0o600); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(runDir, 0o700); err != nil {
		t.Fatal(err)
	}
	linkedDir := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(outside, linkedDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(marker, filepath.Join(runDir, "run.log")); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{
		"file is a link":      filepath.Join(runDir, "run.log"),
		"directory is a link": filepath.Join(linkedDir, "new.log"),
	} {
		t.Run(name, func(t *testing.T) {
			f, err := OpenAppend(path)
			if err == nil {
				_ = f.Close()
				t.Fatal("a link was opened")
			}
			if !errors.Is(err, ErrLink) || !strings.Contains(err.Error(), "remove the link") {
				t.Fatalf("error %v does not say the path is a link and what to do", err)
			}
		})
	}
	if b, _ := os.ReadFile(marker); string(b) != "untouched" {
		t.Fatalf("the marker outside was written: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.log")); !os.IsNotExist(err) {
		t.Fatalf("a file was made through the linked directory: %v", err)
	}
}

func TestOpenAppendMakesPrivateFileAndAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs", "r1", "activity.jsonl")
	for _, line := range []string{"a\n", "b\n"} {
		f, err := OpenAppend(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
	}
	b, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	dst, _ := os.Stat(filepath.Dir(path))
	if string(b) != "a\nb\n" || st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Fatalf("content %q, file mode %v, dir mode %v", b, st.Mode(), dst.Mode())
	}
	if err := RealDir(path); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("a file taken for a directory: %v", err)
	}
}
