package builtins

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"

	"github.com/awf-dev/awf/internal/infrastructure/tools/search"
)

// grepTree builds a tree exercising filters, ignore rules, binaries and symlinks.
func grepTree(t *testing.T, root string) {
	t.Helper()
	files := map[string]string{
		"main.go":           "package main\n\nfunc main() {\n\tneedle()\n}\n",
		"util/util.go":      "package util\n\n// Needle is exported\nfunc Needle() {}\n",
		"util/util_test.go": "package util\n// needle in a test\n",
		"web/app.ts":        "const needle = 1;\n",
		"web/app.js":        "var needle = 2;\n",
		"docs/readme.md":    "# needle\ntext\n",
		".gitignore":        "ignored/\n*.gen.go\n",
		"ignored/x.go":      "needle\n",
		"util/z.gen.go":     "needle\n",
		"util/.gitignore":   "local.go\n",
		"util/local.go":     "needle\n",
		"util/sub/deep.go":  "needle deep\n",
		".git/config":       "needle\n",
		".hidden/h.txt":     "needle\n",
		"bin/early.bin":     "needle\x00binary\n",
		"bin/late.bin":      "needle\n" + strings.Repeat("a", 10000) + "\x00",
	}
	for name, content := range files {
		mustWrite(t, filepath.Join(root, name), content)
	}
}

func grepLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if !strings.HasPrefix(l, "[") && !strings.HasPrefix(l, "Found ") {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestGrepFilters(t *testing.T) {
	p, root := newTestProvider(t)
	grepTree(t, root)
	rel := func(out string) string {
		var names []string
		for _, l := range grepLines(out) {
			names = append(names, strings.TrimPrefix(l, root+"/"))
		}
		return strings.Join(names, " ")
	}
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"count everything searchable", map[string]any{"pattern": "needle", "output_mode": "count"},
			".hidden/h.txt:1 docs/readme.md:1 main.go:1 util/sub/deep.go:1 util/util_test.go:1 web/app.js:1 web/app.ts:1"},
		{"case insensitive", map[string]any{"pattern": "NEEDLE", "-i": true, "output_mode": "count"},
			".hidden/h.txt:1 docs/readme.md:1 main.go:1 util/sub/deep.go:1 util/util.go:2 util/util_test.go:1 web/app.js:1 web/app.ts:1"},
		{"type go", map[string]any{"pattern": "needle", "type": "go", "output_mode": "count"},
			"main.go:1 util/sub/deep.go:1 util/util_test.go:1"},
		{"type alias", map[string]any{"pattern": "needle", "type": "typescript", "output_mode": "count"}, "web/app.ts:1"},
		{"glob by name", map[string]any{"pattern": "needle", "glob": "*.{js,ts}", "output_mode": "count"}, "web/app.js:1 web/app.ts:1"},
		{"glob by path", map[string]any{"pattern": "needle", "glob": "util/**/*.go", "output_mode": "count"}, "util/sub/deep.go:1 util/util_test.go:1"},
		{"negated glob", map[string]any{"pattern": "needle", "glob": "!*_test.go", "type": "go", "output_mode": "count"}, "main.go:1 util/sub/deep.go:1"},
		{"negated dir glob", map[string]any{"pattern": "needle", "glob": "!util", "output_mode": "count"}, ".hidden/h.txt:1 docs/readme.md:1 main.go:1 web/app.js:1 web/app.ts:1"},
		{"sub path keeps parent ignores", map[string]any{"pattern": "needle", "path": "util", "output_mode": "count"}, "util/sub/deep.go:1 util/util_test.go:1"},
		{"explicit ignored file is searched", map[string]any{"pattern": "needle", "path": "ignored/x.go", "output_mode": "count"}, "ignored/x.go:1"},
		{"explicit binary file is skipped", map[string]any{"pattern": "needle", "path": "bin/late.bin", "output_mode": "count"}, "No matches found"},
		{"head limit files", map[string]any{"pattern": "needle", "type": "go", "head_limit": 1}, "main.go"},
	}
	// Distinct mtimes so files mode ordering is deterministic: main.go newest.
	old := time.Now().Add(-time.Hour)
	filepath.Walk(root, func(path string, _ os.FileInfo, _ error) error { return os.Chtimes(path, old, old) })
	os.Chtimes(filepath.Join(root, "main.go"), time.Now(), time.Now())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := wantOK(t, call(t, p, "Grep", tt.args))
			got := rel(out)
			if tt.want == "No matches found" {
				got = strings.TrimSpace(out)
			}
			if got != tt.want {
				t.Fatalf("got  %s\nwant %s\nfull output:\n%s", got, tt.want, out)
			}
		})
	}
	out := wantOK(t, call(t, p, "Grep", map[string]any{"pattern": "needle", "type": "go"}), "Found 3 files\n"+filepath.Join(root, "main.go")+"\n")
	_ = out
	wantOK(t, call(t, p, "Grep", map[string]any{"pattern": "needle", "type": "go", "head_limit": 1}), "[head_limit 1: 2 more files not shown]")
	wantOK(t, call(t, p, "Grep", map[string]any{"pattern": "nothing-matches-this"}), "No files found")
}

func TestGrepContentFormat(t *testing.T) {
	p, root := newTestProvider(t)
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	mustWrite(t, filepath.Join(root, "f.txt"), b.String())
	mustWrite(t, filepath.Join(root, "g.txt"), "line 5\n")
	f := filepath.Join(root, "f.txt")
	g := filepath.Join(root, "g.txt")
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"plain", map[string]any{"pattern": "line (3|12)$", "output_mode": "content", "path": "f.txt"},
			f + ":3:line 3\n" + f + ":12:line 12\n"},
		{"no line numbers", map[string]any{"pattern": "line 3$", "output_mode": "content", "path": "f.txt", "-n": false},
			f + ":line 3\n"},
		{"context merges and separates", map[string]any{"pattern": "line (3|5|12)$", "output_mode": "content", "path": "f.txt", "-C": 1},
			f + "-2-line 2\n" + f + ":3:line 3\n" + f + "-4-line 4\n" + f + ":5:line 5\n" + f + "-6-line 6\n--\n" +
				f + "-11-line 11\n" + f + ":12:line 12\n" + f + "-13-line 13\n"},
		{"before and after differ", map[string]any{"pattern": "line 1$", "output_mode": "content", "path": "f.txt", "-B": 3, "-A": 2},
			f + ":1:line 1\n" + f + "-2-line 2\n" + f + "-3-line 3\n"},
		{"context at end of file", map[string]any{"pattern": "line 20", "output_mode": "content", "path": "f.txt", "-A": 5, "-B": 1},
			f + "-19-line 19\n" + f + ":20:line 20\n"},
		{"-A overrides -C", map[string]any{"pattern": "line 10$", "output_mode": "content", "path": "f.txt", "-C": 2, "-A": 0},
			f + "-8-line 8\n" + f + "-9-line 9\n" + f + ":10:line 10\n"},
		{"files sorted by path, -- between files", map[string]any{"pattern": "line 5$", "output_mode": "content", "-A": 1},
			f + ":5:line 5\n" + f + "-6-line 6\n--\n" + g + ":1:line 5\n"},
		{"head limit lines", map[string]any{"pattern": "line", "output_mode": "content", "path": "f.txt", "head_limit": 2},
			f + ":1:line 1\n" + f + ":2:line 2\n[head_limit 2 reached]\n"},
		{"multiline", map[string]any{"pattern": `line 3\nline 4`, "output_mode": "content", "path": "f.txt", "multiline": true},
			f + ":3:line 3\n" + f + ":4:line 4\n"},
		{"no multiline, no cross-line match", map[string]any{"pattern": `line 3\nline 4`, "output_mode": "content", "path": "f.txt"},
			"No matches found\n"},
		{"count", map[string]any{"pattern": "line 1", "output_mode": "count"},
			f + ":11\n[11 matching lines in 1 file]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := wantOK(t, call(t, p, "Grep", tt.args)); got != tt.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestGrepContentMatchesRipgrep compares content output with context against rg when installed.
func TestGrepContentMatchesRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		testkit.Skip(t, "rg not installed")
	}
	p, root := newTestProvider(t)
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "row %d %s\n", i, strings.Repeat("ab", i%7))
	}
	mustWrite(t, filepath.Join(root, "data.txt"), b.String())
	for _, ctx := range [][2]int{{0, 0}, {1, 0}, {0, 2}, {2, 2}, {5, 1}} {
		for _, pat := range []string{`row \d*7 `, `abababab`, `^row 1`, `(ab){6}$`} {
			args := []string{"--no-heading", "--with-filename", "-n", "-A", fmt.Sprint(ctx[0]), "-B", fmt.Sprint(ctx[1]), "-e", pat, filepath.Join(root, "data.txt")}
			want, _ := exec.Command(rg, args...).Output()
			got := wantOK(t, call(t, p, "Grep", map[string]any{"pattern": pat, "output_mode": "content", "-A": ctx[0], "-B": ctx[1], "path": "data.txt"}))
			if len(want) == 0 {
				want = []byte("No matches found\n")
			}
			if got != string(want) {
				t.Fatalf("pattern %q context %v:\ngot:\n%s\nrg:\n%s", pat, ctx, got, want)
			}
		}
	}
}

func TestGrepLongLinesAndSymlinks(t *testing.T) {
	p, root := newTestProvider(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "secret.txt"), "needle secret\n")
	long := strings.Repeat("x", 2<<20) + "needle" + strings.Repeat("y", 1000)
	mustWrite(t, filepath.Join(root, "a/long.txt"), "start\n"+long+"\nend needle\n")
	mustWrite(t, filepath.Join(root, "z/after.txt"), "needle after the links\n")
	os.Symlink(outside, filepath.Join(root, "b-out"))
	os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "c-in"))
	os.Symlink(root, filepath.Join(root, "d-loop"))
	os.Symlink("/nonexistent", filepath.Join(root, "e-dangling"))
	if err := syscall.Mkfifo(filepath.Join(root, "f-fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		done <- wantOK(t, call(t, p, "Grep", map[string]any{"pattern": "needle", "output_mode": "count"}))
	}()
	var out string
	select {
	case out = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Grep hung (FIFO or symlink loop)")
	}
	want := filepath.Join(root, "a/long.txt") + ":2\n" + filepath.Join(root, "z/after.txt") + ":1\n"
	if !strings.HasPrefix(out, want) {
		t.Fatalf("got:\n%s\nwant prefix:\n%s", out, want)
	}
	content := wantOK(t, call(t, p, "Grep", map[string]any{"pattern": "needle", "output_mode": "content", "path": "a"}), ":2:xxxx", "[line truncated: 2098158 bytes]", ":3:end needle")
	if len(content) > 3*search.MaxLineChars+500 {
		t.Fatalf("a 2 MB line reached the output: %d bytes", len(content))
	}
	wantErr(t, call(t, p, "Grep", map[string]any{"pattern": "needle", "path": "b-out"}), "outside the allowed root")
	wantErr(t, call(t, p, "Grep", map[string]any{"pattern": "needle", "path": filepath.Join(outside, "secret.txt")}), "outside the allowed root")
	wantErr(t, call(t, p, "Grep", map[string]any{"pattern": "needle", "path": "f-fifo"}), "named pipe")
}

func TestGrepOutputCap(t *testing.T) {
	root := t.TempDir()
	p, err := New(Options{Root: root, MaxOutputBytes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		mustWrite(t, filepath.Join(root, fmt.Sprintf("f%02d.txt", i)), strings.Repeat("match me\n", 100))
	}
	for _, mode := range []string{"content", "count", "files_with_matches"} {
		out := wantOK(t, call(t, p, "Grep", map[string]any{"pattern": "match", "output_mode": mode}))
		if len(out) > 2000 {
			t.Fatalf("%s: %d bytes over a 2000-byte cap", mode, len(out))
		}
		if mode != "files_with_matches" && !strings.Contains(out, "[output truncated:") {
			t.Fatalf("%s: no truncation note:\n%s", mode, out)
		}
	}
}
