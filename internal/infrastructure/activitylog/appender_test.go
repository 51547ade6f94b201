package activitylog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
)

var _ ports.ActivitySink = (*Appender)(nil)

func TestAppenderConcurrentWithAFileStoreAndAfterClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs", "r1", FileName)
	app := &Appender{Store: FileStore{Path: path}}
	want := map[string]bool{}
	var wg sync.WaitGroup
	for w := range 6 {
		name := string(rune('a'+w)) + "x"
		var sink ports.ActivitySink = app
		if w == 5 {
			sink = FileStore{Path: path} // another writer, as awf run is beside mcp-serve
		}
		for i := range 30 {
			want[bigRecord(name, i).ID] = true
		}
		wg.Go(func() {
			for i := range 30 {
				if err := sink.Append(context.Background(), bigRecord(name, i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkFile(t, path, want)
	if app.f == nil {
		t.Fatal("the appender does not keep its file open between records")
	}
	if err := app.Close(); err != nil || app.f != nil {
		t.Fatalf("Close: %v, file still held: %v", err, app.f != nil)
	}
	if err := app.Append(context.Background(), bigRecord("late", 0)); err != nil {
		t.Fatalf("a record after Close: %v", err)
	}
	want[bigRecord("late", 0).ID] = true
	checkFile(t, path, want)
	if err := app.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v", st.Mode().Perm())
	}
}

func TestAppenderRedactsAndReportsFailures(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	red := redact.New([]string{"MY_TOKEN=s3cr3t-value-123"}, "MY_TOKEN")
	app := &Appender{Store: FileStore{Path: path, Redactor: red}}
	defer func() { _ = app.Close() }()
	rec := activity.Record{ID: "r1", Time: time.Unix(1, 0).UTC(), Tool: "Bash", Outcome: activity.OutcomeSuccess,
		Arguments: map[string]any{"command": "echo s3cr3t-value-123"}}
	if err := app.Append(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), "s3cr3t") || !strings.Contains(string(b), `"r1"`) {
		t.Fatalf("record not written masked: %s", b)
	}

	blocked := &Appender{Store: FileStore{Path: filepath.Join(path, "sub", FileName)}} // a file is in the way
	if err := blocked.Append(context.Background(), rec); fault.CodeOf(err) != fault.SystemActivityWriteFailed {
		t.Fatalf("want %s, got %v", fault.SystemActivityWriteFailed, err)
	}
	if err := (&Appender{}).Append(context.Background(), rec); fault.CodeOf(err) != fault.SystemActivityWriteFailed {
		t.Fatalf("no path: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := app.Append(ctx, rec); err == nil {
		t.Fatal("a cancelled context must not write")
	}
}

func TestAppenderLockWaitHonoursContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	app := &Appender{Store: FileStore{Path: path}}
	defer func() { _ = app.Close() }()
	if err := app.Append(context.Background(), bigRecord("a", 0)); err != nil {
		t.Fatal(err)
	}
	holder, err := os.OpenFile(path, os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := lockFile(context.Background(), holder); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := app.Append(ctx, bigRecord("a", 1)); fault.CodeOf(err) != fault.SystemActivityWriteFailed {
		t.Fatalf("want a write failure once the context ends, got %v", err)
	}
	_ = unlockFile(holder)
	if err := app.Append(context.Background(), bigRecord("a", 2)); err != nil {
		t.Fatalf("after the lock is released: %v", err)
	}
}
