package activitylog

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
)

var (
	_ ports.ActivitySink   = FileStore{}
	_ ports.ActivitySource = FileStore{}
)

// childEnv makes the test binary act as a writer process: "<file>|<writer>|<count>".
const childEnv = "AWF_ACTIVITY_TEST_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(runChild(spec))
	}
	os.Exit(m.Run())
}

func runChild(spec string) int {
	parts := strings.Split(spec, "|")
	n, _ := strconv.Atoi(parts[2])
	var s ports.ActivitySink = FileStore{Path: parts[0]}
	if strings.ContainsAny(parts[1][:1], "bd") { // half the writer processes keep their file open
		app := &Appender{Store: FileStore{Path: parts[0]}}
		defer func() { _ = app.Close() }()
		s = app
	}
	for i := range n {
		if err := s.Append(context.Background(), bigRecord(parts[1], i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// bigRecord is larger than a pipe buffer and a page, so a torn write would show.
func bigRecord(writer string, i int) activity.Record {
	return activity.Record{
		ID: fmt.Sprintf("%s-%05d", writer, i), Time: time.Unix(int64(i), 0).UTC(), RunID: "run", Tool: "Write",
		Source: tool.BuiltinSource, Outcome: activity.OutcomeSuccess,
		Arguments: map[string]any{"content": strings.Repeat(writer[:1], 9000)},
	}
}

// checkFile asserts every line is valid JSON and the ids are exactly want.
func checkFile(t *testing.T, path string, want map[string]bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	seen := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		r, err := Decode(sc.Bytes())
		if err != nil {
			t.Fatalf("line %d is not valid JSON (%v): %.80s", n, err, sc.Text())
		}
		if seen[r.ID] {
			t.Fatalf("record %s written twice", r.ID)
		}
		if c := r.Arguments["content"].(string); c != strings.Repeat(r.ID[:1], 9000) {
			t.Fatalf("record %s content mixed with another record", r.ID)
		}
		seen[r.ID] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(want) {
		t.Fatalf("file has %d records, want %d", len(seen), len(want))
	}
	for id := range want {
		if !seen[id] {
			t.Fatalf("record %s missing", id)
		}
	}
}

func TestAppendConcurrentGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs", "r1", FileName)
	s := FileStore{Path: path}
	const writers, per = 8, 40
	want := map[string]bool{}
	var wg sync.WaitGroup
	for w := range writers {
		name := string(rune('a'+w)) + "g"
		for i := range per {
			want[bigRecord(name, i).ID] = true
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				if err := s.Append(context.Background(), bigRecord(name, i)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	checkFile(t, path, want)

	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("file mode = %v, want 0600", st.Mode().Perm())
	}
	dst, _ := os.Stat(filepath.Dir(path))
	if dst.Mode().Perm() != 0o700 {
		t.Errorf("dir mode = %v, want 0700", dst.Mode().Perm())
	}
}

func TestAppendConcurrentProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	const procs, per = 4, 60
	want := map[string]bool{}
	cmds := make([]*exec.Cmd, procs)
	for p := range procs {
		name := string(rune('a'+p)) + "p"
		for i := range per {
			want[bigRecord(name, i).ID] = true
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%d", childEnv, path, name, per))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[p] = cmd
	}
	// This process appends too, as awf run does while its mcp-serve children write.
	for i := range per {
		if err := (FileStore{Path: path}).Append(context.Background(), bigRecord("main", i)); err != nil {
			t.Fatal(err)
		}
		want[bigRecord("main", i).ID] = true
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer process %d: %v", i, err)
		}
	}
	checkFile(t, path, want)
}

func TestAppendLockWaitHonoursContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	holder, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := lockFile(context.Background(), holder); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = FileStore{Path: path}.Append(ctx, bigRecord("x", 1))
	if err == nil || time.Since(start) > 2*time.Second {
		t.Fatalf("Append under a held lock = %v after %v, want a prompt context error", err, time.Since(start))
	}
	if err := unlockFile(holder); err != nil {
		t.Fatal(err)
	}
	if err := (FileStore{Path: path}).Append(context.Background(), bigRecord("x", 2)); err != nil {
		t.Fatalf("Append after unlock: %v", err)
	}
}

func writeLines(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func rec(id, run, toolName string, out activity.Outcome, v tool.Variant) string {
	b, _ := Encode(activity.Record{ID: id, RunID: run, Tool: toolName, Outcome: out, Intent: tool.Intent{Variant: v}})
	return string(b)
}

func TestListFilterAndMalformedLines(t *testing.T) {
	path := writeLines(t,
		rec("aaa111", "r1", "Read", activity.OutcomeSuccess, tool.VariantRead),
		"{not json\n",
		"\n",
		rec("bbb222", "r1", "Write", activity.OutcomeError, tool.VariantWrite),
		`["an array"]`+"\n",
		rec("ccc333", "r2", "Bash", activity.OutcomeRefused, tool.VariantDestructive),
		rec("ddd444", "r2", "Read", activity.OutcomeSuccess, tool.VariantRead),
		`{"id":"partial","tool":"Re`, // a record still being written: no newline yet
	)
	tests := []struct {
		name   string
		filter activity.Filter
		want   string
	}{
		{"all", activity.Filter{}, "aaa111,bbb222,ccc333,ddd444"},
		{"run", activity.Filter{RunID: "r2"}, "ccc333,ddd444"},
		{"tool", activity.Filter{Tool: "Read"}, "aaa111,ddd444"},
		{"outcome", activity.Filter{Outcome: activity.OutcomeRefused}, "ccc333"},
		{"intent type", activity.Filter{IntentType: tool.VariantWrite}, "bbb222"},
		{"combined", activity.Filter{RunID: "r1", Tool: "Read"}, "aaa111"},
		{"none", activity.Filter{RunID: "r9"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, rep, err := FileStore{Path: path}.Scan(context.Background(), tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range recs {
				ids = append(ids, r.ID)
			}
			if got := strings.Join(ids, ","); got != tt.want {
				t.Errorf("ids = %q, want %q", got, tt.want)
			}
			if rep.Skipped != 2 || rep.Lines != 6 || len(rep.Problems) != 2 || !strings.HasPrefix(rep.Problems[0], "line 2: ") ||
				!strings.HasPrefix(rep.Problems[1], "line 5: ") {
				t.Errorf("report = %+v, want lines 2 and 5 skipped out of 6", rep)
			}
		})
	}

	core, logs := observer.New(zapcore.WarnLevel)
	recs, err := FileStore{Path: path, Logger: zap.New(core)}.List(context.Background(), activity.Filter{})
	if err != nil || len(recs) != 4 {
		t.Fatalf("List = %d records, %v", len(recs), err)
	}
	if e := logs.All(); len(e) != 1 || e[0].ContextMap()["skipped"] != int64(2) {
		t.Errorf("skipped lines not logged once with the count: %+v", e)
	}
}

func TestScanOversizedLineIsSkipped(t *testing.T) {
	path := writeLines(t, rec("a00001", "r", "Read", activity.OutcomeSuccess, ""),
		`{"id":"huge","x":"`+strings.Repeat("x", MaxLine+10)+"\"}\n",
		rec("b00002", "r", "Read", activity.OutcomeSuccess, ""))
	recs, rep, err := FileStore{Path: path}.Scan(context.Background(), activity.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].ID != "b00002" || rep.Skipped != 1 || !strings.Contains(rep.Problems[0], "longer than") {
		t.Fatalf("records %d, report %+v; want the huge line skipped and the next one read", len(recs), rep)
	}
}

func TestListMissingFile(t *testing.T) {
	recs, err := FileStore{Path: filepath.Join(t.TempDir(), "none.jsonl")}.List(context.Background(), activity.Filter{})
	if err != nil || len(recs) != 0 {
		t.Fatalf("List of a missing file = %v, %v; want no records and no error", recs, err)
	}
}

func TestGet(t *testing.T) {
	path := writeLines(t,
		rec("abcdef0001", "r1", "Read", activity.OutcomeSuccess, ""),
		"garbage\n",
		rec("abcdef0002", "r1", "Write", activity.OutcomeSuccess, ""),
		rec("123456789a", "r1", "Bash", activity.OutcomeSuccess, ""),
		rec("12345", "r1", "Glob", activity.OutcomeSuccess, ""),
	)
	tests := []struct {
		id       string
		wantTool string
		wantCode string
	}{
		{"abcdef0002", "Write", ""},
		{"1234567", "Bash", ""}, // unique prefix
		{"12345", "Glob", ""},   // exact beats prefix
		{"abcdef", "", fault.UserActivityAmbiguousID},
		{"abc", "", fault.UserActivityNotFound}, // too short to be a prefix
		{"zzzzzz", "", fault.UserActivityNotFound},
	}
	for _, tt := range tests {
		r, err := FileStore{Path: path}.Get(context.Background(), tt.id)
		if fault.CodeOf(err) != tt.wantCode || r.Tool != tt.wantTool {
			t.Errorf("Get(%q) = %q, %v; want %q, code %q", tt.id, r.Tool, err, tt.wantTool, tt.wantCode)
		}
	}
	_, err := FileStore{Path: filepath.Join(t.TempDir(), "x.jsonl")}.Get(context.Background(), "abc")
	if fault.CodeOf(err) != fault.UserActivityNotFound || fault.ExitCode(err) != fault.ExitUser {
		t.Errorf("Get on a missing file = %v, want %s", err, fault.UserActivityNotFound)
	}
}

func TestFindRunFiles(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	for _, id := range []string{"r1", "r2"} {
		if err := (FileStore{Path: RunFile(runs, id)}).Append(context.Background(), bigRecord("x", 0)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(runs, "empty"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runs, "stray.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := FindRunFiles(runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["r1"] != filepath.Join(runs, "r1", FileName) || got["r2"] == "" {
		t.Errorf("FindRunFiles = %v, want r1 and r2 only", got)
	}
	if got, err := FindRunFiles(filepath.Join(runs, "missing")); err != nil || len(got) != 0 {
		t.Errorf("FindRunFiles(missing) = %v, %v; want empty", got, err)
	}
}

func TestAppendErrors(t *testing.T) {
	if err := (FileStore{}).Append(context.Background(), activity.Record{}); fault.CodeOf(err) != fault.SystemActivityWriteFailed {
		t.Errorf("empty path: %v", err)
	}
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := FileStore{Path: filepath.Join(blocker, "sub", FileName)}.Append(context.Background(), activity.Record{})
	if fault.CodeOf(err) != fault.SystemActivityWriteFailed || !strings.Contains(err.Error(), "hint") {
		t.Errorf("unwritable path: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (FileStore{Path: filepath.Join(dir, FileName)}).Append(ctx, activity.Record{}); err == nil {
		t.Error("Append with a cancelled context succeeded")
	}
}

func BenchmarkAppend(b *testing.B) {
	s := FileStore{Path: filepath.Join(b.TempDir(), FileName)}
	r := activity.Record{ID: "0123456789abcdef0123456789abcdef", RunID: "run", Tool: "Read", Source: tool.BuiltinSource,
		Arguments: map[string]any{"file_path": "/src/main.go", "offset": 10.0}, Outcome: activity.OutcomeSuccess}
	ctx := context.Background()
	for b.Loop() {
		if err := s.Append(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
}
