package approvals

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/redact"
)

var bashReq = routing.ApprovalRequest{RunID: "r1", Step: "agent", Tool: "Bash", Variant: "destructive",
	Args: map[string]any{"command": "touch marker"}}

// awaitPending starts Await in the background and returns its id once the pending file exists.
func awaitPending(t *testing.T, d Dir) (string, <-chan activity.Approval) {
	t.Helper()
	out := make(chan activity.Approval, 1)
	go func() {
		a, err := d.Await(context.Background(), bashReq)
		if err != nil {
			t.Errorf("Await: %v", err)
		}
		out <- a
	}()
	for range 200 {
		list, err := d.List()
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == 1 {
			return list[0].ID, out
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no pending approval appeared")
	return "", nil
}

// A decision by a decider ends the wait with that decision; the pending file is gone after,
// and the directory and files are private.
func TestAwaitDecisions(t *testing.T) {
	for _, tc := range []struct{ decision, by string }{
		{activity.ApprovalApprove, activity.ApprovedByAPI},
		{activity.ApprovalDeny, activity.ApprovedByPage},
		{activity.ApprovalApprove, activity.ApprovedByTerminal},
	} {
		t.Run(tc.decision+"-"+tc.by, func(t *testing.T) {
			d := Dir{Path: filepath.Join(t.TempDir(), DirName), Timeout: time.Minute, Poll: 5 * time.Millisecond}
			id, out := awaitPending(t, d)
			p, _ := d.List()
			if p[0].Tool != "Bash" || p[0].Summary != "touch marker" || p[0].Variant != "destructive" || p[0].RunID != "r1" {
				t.Errorf("pending = %+v", p[0])
			}
			fi, err := os.Stat(filepath.Join(d.Path, id+pendingSuffix))
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("pending file mode %v, %v", fi, err)
			}
			if di, _ := os.Stat(d.Path); di.Mode().Perm() != 0o700 {
				t.Errorf("dir mode %v", di.Mode().Perm())
			}
			if err := d.Decide(id, tc.decision, tc.by); err != nil {
				t.Fatal(err)
			}
			a := <-out
			if a.Decision != tc.decision || a.By != tc.by || a.At.IsZero() {
				t.Errorf("approval = %+v", a)
			}
			if list, _ := d.List(); len(list) != 0 {
				t.Errorf("still pending: %+v", list)
			}
			if err := d.Decide(id, activity.ApprovalApprove, activity.ApprovedByAPI); !errors.Is(err, ErrDecided) {
				t.Errorf("second decision: %v, want ErrDecided", err)
			}
		})
	}
}

// Nobody answers: the wait ends at the deadline with a deny by timeout.
func TestAwaitTimeout(t *testing.T) {
	d := Dir{Path: t.TempDir(), Timeout: 150 * time.Millisecond, Poll: 10 * time.Millisecond}
	start := time.Now()
	a, err := d.Await(context.Background(), bashReq)
	if err != nil {
		t.Fatal(err)
	}
	if a.Decision != activity.ApprovalDeny || a.By != activity.ApprovedByTimeout {
		t.Errorf("approval = %+v, want deny by timeout", a)
	}
	if el := time.Since(start); el < 150*time.Millisecond || el > 5*time.Second {
		t.Errorf("waited %v", el)
	}
}

// A cancelled call stops waiting at once.
func TestAwaitCancelled(t *testing.T) {
	d := Dir{Path: t.TempDir(), Timeout: time.Hour, Poll: 10 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := d.Await(ctx, bashReq); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
}

// Many deciders at once: exactly one wins, the others get ErrDecided, and the holder sees the
// winner's decision.
func TestFirstDecisionWins(t *testing.T) {
	d := Dir{Path: t.TempDir(), Timeout: time.Minute, Poll: 5 * time.Millisecond}
	id, out := awaitPending(t, d)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := map[string]int{}
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dec := activity.ApprovalApprove
			if i%2 == 1 {
				dec = activity.ApprovalDeny
			}
			err := d.Decide(id, dec, activity.ApprovedByAPI)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins[dec]++
			case !errors.Is(err, ErrDecided) && !errors.Is(err, ErrNotFound):
				t.Errorf("Decide: %v", err)
			}
		}()
	}
	wg.Wait()
	a := <-out
	if len(wins) != 1 || wins[a.Decision] != 1 {
		t.Errorf("wins = %v, holder saw %+v", wins, a)
	}
}

// Hostile ids never reach the file system: a path, "..", an id of another form are refused, and
// no file is created outside the directory.
func TestDecideHostileIDs(t *testing.T) {
	root := t.TempDir()
	d := Dir{Path: filepath.Join(root, DirName)}
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		t.Fatal(err)
	}
	// A pending file outside the directory that a traversal would reach.
	if err := os.WriteFile(filepath.Join(root, "x"+pendingSuffix), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"", "..", "../x", "/etc/passwd", "0123456789abcdef0123456789abcdeF", "0123456789abcdef0123456789abcdef/..", "a b", "0123456789abcdef0123456789abcdef0"} {
		if err := d.Decide(id, activity.ApprovalApprove, activity.ApprovedByAPI); !errors.Is(err, ErrBadID) {
			t.Errorf("Decide(%q) = %v, want ErrBadID", id, err)
		}
	}
	if err := d.Decide("0123456789abcdef0123456789abcdef", activity.ApprovalApprove, activity.ApprovedByAPI); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v, want ErrNotFound", err)
	}
	ents, _ := os.ReadDir(root)
	if len(ents) != 2 {
		t.Errorf("files created beside the directory: %v", ents)
	}
}

// A decider may not claim to be the timeout, nor send another decision word.
func TestDecideBadDecision(t *testing.T) {
	d := Dir{Path: t.TempDir(), Timeout: time.Minute, Poll: 5 * time.Millisecond}
	id, out := awaitPending(t, d)
	for _, tc := range []struct{ decision, by string }{
		{"yes", activity.ApprovedByAPI}, {"", activity.ApprovedByAPI}, {activity.ApprovalApprove, activity.ApprovedByTimeout}, {activity.ApprovalApprove, "mallory"},
	} {
		if err := d.Decide(id, tc.decision, tc.by); !errors.Is(err, ErrBadDecider) {
			t.Errorf("Decide(%q, %q) = %v", tc.decision, tc.by, err)
		}
	}
	_ = d.Decide(id, activity.ApprovalDeny, activity.ApprovedByAPI)
	<-out
}

// Secrets in the arguments are masked in the pending file a page or API shows.
func TestPendingMasked(t *testing.T) {
	red := redact.New(nil)
	red.AddValue("TOKEN", "s3cr3t-value-123")
	d := Dir{Path: t.TempDir(), Timeout: time.Minute, Poll: 5 * time.Millisecond, Redactor: red}
	req := bashReq
	req.Args = map[string]any{"command": "echo s3cr3t-value-123"}
	out := make(chan activity.Approval, 1)
	go func() { a, _ := d.Await(context.Background(), req); out <- a }()
	var p []Pending
	for range 200 {
		if p, _ = d.List(); len(p) == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(p) != 1 {
		t.Fatal("no pending")
	}
	raw, _ := os.ReadFile(filepath.Join(d.Path, p[0].ID+pendingSuffix))
	if strings.Contains(string(raw), "s3cr3t-value-123") {
		t.Errorf("secret in pending file: %s", raw)
	}
	_ = d.Decide(p[0].ID, activity.ApprovalDeny, activity.ApprovedByAPI)
	<-out
}
