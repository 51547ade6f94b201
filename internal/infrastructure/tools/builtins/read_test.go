package builtins

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/awf-dev/awf/tests/testkit"

	"github.com/awf-dev/awf/internal/infrastructure/tools/search"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

func TestRead(t *testing.T) {
	p, root := newTestProvider(t)
	mustWrite(t, filepath.Join(root, "three.txt"), "one\ntwo\nthree\n")
	mustWrite(t, filepath.Join(root, "nonl.txt"), "a\nb")
	mustWrite(t, filepath.Join(root, "empty.txt"), "")
	mustWrite(t, filepath.Join(root, "bin.dat"), "abc\x00def")
	mustWrite(t, filepath.Join(root, "bad-utf8.txt"), "ok \xff\xfe end\n")
	mustWrite(t, filepath.Join(root, "long.txt"), strings.Repeat("é", 3000)+"\nshort\n")
	mustWrite(t, filepath.Join(root, "crlf.txt"), "a\r\nb\r\n")
	tests := []struct {
		name    string
		args    map[string]any
		want    string // exact output, or a substring when isErr
		isErr   bool
		contain bool
	}{
		{"whole file", map[string]any{"file_path": "three.txt"}, "     1\tone\n     2\ttwo\n     3\tthree\n", false, false},
		{"offset and limit", map[string]any{"file_path": "three.txt", "offset": 2, "limit": 1}, "     2\ttwo\n\n[showing lines 2-2; the file continues: call Read with offset=3 for more]", false, false},
		{"offset zero is first line", map[string]any{"file_path": "three.txt", "offset": 0, "limit": 1}, "     1\tone\n", false, true},
		{"limit to the end", map[string]any{"file_path": "three.txt", "offset": 3, "limit": 1}, "     3\tthree\n", false, false},
		{"no final newline", map[string]any{"file_path": "nonl.txt"}, "     1\ta\n     2\tb\n", false, false},
		{"last line without newline", map[string]any{"file_path": "nonl.txt", "offset": 2}, "     2\tb\n", false, false},
		{"absolute path", map[string]any{"file_path": filepath.Join(root, "three.txt"), "limit": 1}, "     1\tone\n", false, true},
		{"crlf kept", map[string]any{"file_path": "crlf.txt"}, "     1\ta\r\n     2\tb\r\n", false, false},
		{"empty", map[string]any{"file_path": "empty.txt"}, "is empty (0 lines)", false, true},
		{"past end", map[string]any{"file_path": "three.txt", "offset": 4}, "offset 4 is past the end of " + filepath.Join(root, "three.txt") + ", which has 3 lines", true, true},
		{"binary", map[string]any{"file_path": "bin.dat"}, "binary file", true, true},
		{"directory", map[string]any{"file_path": "."}, "is a directory", true, true},
		{"missing", map[string]any{"file_path": "nope.txt"}, "file does not exist", true, true},
		{"invalid utf8 replaced", map[string]any{"file_path": "bad-utf8.txt"}, "     1\tok \uFFFD\uFFFD end\n", false, false},
		{"long line cut", map[string]any{"file_path": "long.txt", "limit": 1}, strings.Repeat("é", search.MaxLineChars) + " … [line truncated: 6001 bytes, first 2000 characters shown]\n", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, p, "Read", tt.args)
			got := res.JoinedText()
			if res.IsError != tt.isErr {
				t.Fatalf("IsError=%v: %s", res.IsError, got)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("invalid UTF-8 in output: %q", got)
			}
			if tt.contain && !strings.Contains(got, tt.want) || !tt.contain && got != tt.want {
				t.Fatalf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestReadRefusesSpecialFilesPromptly(t *testing.T) {
	p, root := newTestProvider(t)
	fifo := filepath.Join(root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		testkit.Skipf(t, "mkfifo: %v", err)
	}
	if err := os.Symlink(fifo, filepath.Join(root, "fifo-link")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fifo", "fifo-link", "/dev/null"} {
		if name == "/dev/null" {
			// outside the root: refused by confinement; check the special-file path directly
			start := time.Now()
			devRoot, err := rootfs.OpenPlain("/dev")
			if err != nil {
				t.Fatal(err)
			}
			defer devRoot.Close()
			if _, err := devRoot.OpenRegular("/dev/null"); err == nil || !strings.Contains(err.Error(), "device") {
				t.Fatalf("/dev/null: %v", err)
			}
			if time.Since(start) > time.Second {
				t.Fatal("device refusal was slow")
			}
			continue
		}
		start := time.Now()
		done := make(chan string, 1)
		go func() { done <- wantErr(t, call(t, p, "Read", map[string]any{"file_path": name}), "named pipe") }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Read of a FIFO (%s) hung", name)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Read of a FIFO took %v", d)
		}
	}
}

func TestReadPagesPastTheOutputCap(t *testing.T) {
	root := t.TempDir()
	p, err := New(Options{Root: root, MaxOutputBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	const lines = 5000 // ~ 60 KB, far over the 4 KiB cap
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&b, "line number %d\n", i)
	}
	mustWrite(t, filepath.Join(root, "big.txt"), b.String())
	first := wantOK(t, call(t, p, "Read", map[string]any{"file_path": "big.txt"}), "[output capped at 4096 bytes", "call Read with offset=")
	if len(first) > 4096+200 {
		t.Fatalf("output of %d bytes exceeds the cap", len(first))
	}
	// Follow the continuation hints to the end: every line must be reachable.
	seen, offset := 0, 1
	for round := 0; round < 1000; round++ {
		out := wantOK(t, call(t, p, "Read", map[string]any{"file_path": "big.txt", "offset": offset}))
		for _, l := range strings.Split(out, "\n") {
			var n int
			if _, err := fmt.Sscanf(strings.TrimSpace(l), "%d", &n); err == nil && strings.Contains(l, "\tline number") {
				if n != seen+1 {
					t.Fatalf("line %d follows %d", n, seen)
				}
				seen = n
			}
		}
		i := strings.LastIndex(out, "offset=")
		if i < 0 {
			break
		}
		fmt.Sscanf(out[i+len("offset="):], "%d", &offset)
	}
	if seen != lines {
		t.Fatalf("paged through %d of %d lines", seen, lines)
	}
	last := wantOK(t, call(t, p, "Read", map[string]any{"file_path": "big.txt", "offset": lines, "limit": 5}))
	if last != fmt.Sprintf("%6d\tline number %d\n", lines, lines) {
		t.Fatalf("last line: %q", last)
	}
}

// TestHugeLineBoundedMemory reads and greps around a 64 MB line: output is cut and memory stays
// flat (Read streams; Grep maps files this large instead of reading them).
func TestHugeLineBoundedMemory(t *testing.T) {
	if testing.Short() {
		testkit.Skip(t, "writes a 64 MB file; skipped with -short")
	}
	p, root := newTestProvider(t)
	f, err := os.Create(filepath.Join(root, "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := []byte(strings.Repeat("x", 1<<20))
	for i := 0; i < 64; i++ {
		f.Write(chunk)
	}
	f.WriteString("\nafter\n")
	f.Close()
	before := totalAlloc()
	out := wantOK(t, call(t, p, "Read", map[string]any{"file_path": "huge.txt", "offset": 1}), "line truncated: 67108865 bytes", "     2\tafter\n")
	if grown := totalAlloc() - before; grown > 8<<20 {
		t.Fatalf("Read allocated %d bytes for a 64 MB line", grown)
	}
	if len(out) > 10000 {
		t.Fatalf("output %d bytes", len(out))
	}
	before = totalAlloc()
	out = wantOK(t, call(t, p, "Grep", map[string]any{"pattern": "xxxxxxxxxx", "output_mode": "content"}), ":1:xxx", "[line truncated: 67108864 bytes]")
	if grown := totalAlloc() - before; grown > 8<<20 {
		t.Fatalf("Grep allocated %d bytes for a 64 MB file", grown)
	}
	if len(out) > 10000 {
		t.Fatalf("grep output %d bytes", len(out))
	}
}

func TestReadSymlinkEscape(t *testing.T) {
	p, root := newTestProvider(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "secret.txt"), "TOP SECRET\n")
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "leak.txt"))
	os.Symlink(outside, filepath.Join(root, "leakdir"))
	for _, path := range []string{"leak.txt", "leakdir/secret.txt", filepath.Join(outside, "secret.txt"), "../" + filepath.Base(outside) + "/secret.txt"} {
		txt := wantErr(t, call(t, p, "Read", map[string]any{"file_path": path}), "is outside the allowed root")
		if strings.Contains(txt, "TOP SECRET") {
			t.Fatal("secret leaked")
		}
	}
}

func TestReadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := readLines(ctx, strings.NewReader("a\nb\n"), "x", 1, 10, 1000); err == nil {
		t.Fatal("a cancelled read must fail")
	}
}

// FuzzRead feeds arbitrary content, offsets and limits to the line pager: it must not panic,
// must emit valid UTF-8, at most limit numbered lines, numbered from offset upwards.
func FuzzRead(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), 1, 2)
	f.Add([]byte("\xff\xfe\n\n\n"), 2, 5)
	f.Add([]byte(strings.Repeat("y", 9000)), 1, 1)
	f.Add([]byte(""), 1, 1)
	f.Fuzz(func(t *testing.T, data []byte, offset, limit int) {
		if offset < 1 || offset > 1<<20 || limit < 1 || limit > 1<<20 {
			return
		}
		out, err := readLines(context.Background(), strings.NewReader(string(data)), "f", offset, limit, 1<<16)
		if err != nil {
			return
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8: %q", out)
		}
		n, want := 0, offset
		for _, l := range strings.Split(out, "\n") {
			num, _, ok := strings.Cut(l, "\t")
			if !ok || len(num) != 6 {
				continue
			}
			var got int
			if _, err := fmt.Sscanf(strings.TrimSpace(num), "%d", &got); err != nil {
				continue
			}
			if got != want {
				t.Fatalf("line number %d, want %d", got, want)
			}
			want++
			n++
		}
		if n > limit {
			t.Fatalf("%d lines returned, limit %d", n, limit)
		}
	})
}
