package promptfile

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// read runs ReadPrompt in a goroutine and fails the test if it does not return promptly: the
// cases below are exactly those that used to block.
func read(t *testing.T, r Reader, ctx context.Context, path string) (string, error) {
	t.Helper()
	type result struct {
		s   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := r.ReadPrompt(ctx, path)
		done <- result{s, err}
	}()
	select {
	case res := <-done:
		return res.s, res.err
	case <-time.After(10 * time.Second):
		t.Fatalf("ReadPrompt(%s) blocked", path)
		return "", nil
	}
}

func TestReadPrompt(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.md", []byte("Summarise {{.inputs.target}}\n"))
	exact := write("exact.md", []byte(strings.Repeat("a", 64)))
	big := write("big.md", []byte(strings.Repeat("a", 65)))
	empty := write("empty.md", nil)
	fifo := filepath.Join(dir, "pipe.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(ok, link); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	tests := []struct {
		name    string
		path    string
		want    string
		wantMsg []string // in the error, which must then be USER.AGENT.PROMPT_FILE with a hint
	}{
		{"a regular file", ok, "Summarise {{.inputs.target}}\n", nil},
		{"a symlink to a regular file", link, "Summarise {{.inputs.target}}\n", nil},
		{"an empty file", empty, "", nil},
		{"a file of exactly the limit", exact, strings.Repeat("a", 64), nil},
		{"a file over the limit", big, "", []string{big, "larger than 64 bytes"}},
		{"a FIFO", fifo, "", []string{fifo, "named pipe (FIFO), not a regular file"}},
		{"a character device", "/dev/zero", "", []string{"/dev/zero", "is a device"}},
		{"a directory", dir, "", []string{dir, "is a directory"}},
		{"a socket", sock, "", []string{sock, "is a socket"}},
		{"a missing file", filepath.Join(dir, "nope.md"), "", []string{"nope.md", "does not exist"}},
	}
	r := Reader{MaxBytes: 64}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := read(t, r, context.Background(), tc.path)
			if tc.wantMsg == nil {
				if err != nil || got != tc.want {
					t.Fatalf("ReadPrompt = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			var fe *fault.Error
			if !errors.As(err, &fe) || fe.Code != fault.UserAgentPromptFile || fe.Hint == "" || got != "" {
				t.Fatalf("ReadPrompt = %q, %v; want a USER.AGENT.PROMPT_FILE error with a hint", got, err)
			}
			for _, m := range tc.wantMsg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q lacks %q", err, m)
				}
			}
		})
	}
}

func TestReadPromptDefaultLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p.md")
	if err := os.WriteFile(p, make([]byte, DefaultMaxBytes), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := (Reader{}).ReadPrompt(context.Background(), p); err != nil || len(s) != DefaultMaxBytes {
		t.Fatalf("a file of 1 MiB: %d bytes, %v", len(s), err)
	}
	if err := os.WriteFile(p, make([]byte, DefaultMaxBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (Reader{}).ReadPrompt(context.Background(), p); err == nil || !strings.Contains(err.Error(), "larger than 1 MiB") {
		t.Fatalf("a file over 1 MiB: %v", err)
	}
}

func TestReadPromptUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	p := filepath.Join(t.TempDir(), "p.md")
	if err := os.WriteFile(p, []byte("x"), 0o000); err != nil {
		t.Fatal(err)
	}
	_, err := (Reader{}).ReadPrompt(context.Background(), p)
	if fault.CodeOf(err) != fault.UserAgentPromptFile || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("err %v", err)
	}
}

func TestReadPromptHonoursContext(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p.md")
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Reader{}).ReadPrompt(ctx, p); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled read: %v", err)
	}
}

// slowReader hands out one byte per Read and cancels the context after the first, so the test
// sees whether the loop looks at the context between chunks.
type slowReader struct {
	cancel context.CancelFunc
	reads  int
}

func (s *slowReader) Read(p []byte) (int, error) {
	s.reads++
	s.cancel()
	p[0] = 'x'
	return 1, nil
}

func TestReadBoundedStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	src := &slowReader{cancel: cancel}
	if _, err := readBounded(ctx, src, "p", 1<<20); !errors.Is(err, context.Canceled) || src.reads != 1 {
		t.Fatalf("err %v after %d reads", err, src.reads)
	}
}

// growing stands for a file that grew after it was inspected: it never ends.
type growing struct{}

func (growing) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestReadBounded(t *testing.T) {
	if _, err := readBounded(context.Background(), growing{}, "p", 100); err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Errorf("an endless source: %v", err)
	}
	if _, err := readBounded(context.Background(), failing{}, "p", 100); fault.CodeOf(err) != fault.UserAgentPromptFile || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a failing source: %v", err)
	}
	if s, err := readBounded(context.Background(), strings.NewReader(strings.Repeat("b", chunk*2+5)), "p", 1<<20); err != nil || len(s) != chunk*2+5 {
		t.Errorf("a source of several chunks: %d bytes, %v", len(s), err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 3 << 20: "3 MiB", 1 << 10: "1 KiB", 1536: "1536 bytes", 64: "64 bytes", 1<<20 + 1024: "1025 KiB"} {
		if got := size(n); got != want {
			t.Errorf("size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestIrregular(t *testing.T) {
	if got := irregular(os.ModeSymlink); !strings.Contains(got, "special file") {
		t.Errorf("irregular(symlink) = %q", got)
	}
	if got := irregular(0o644); got != "" {
		t.Errorf("irregular(regular) = %q", got)
	}
}
