package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// homeSpec is a CLI (sh) that runs with a private home, like codex with a proxy: each call
// counts itself in <dir>/home/count and reports the session it continued, or a new one named
// after its process. It also leaves a per-call file beside the home. A prompt "fail" exits 1
// without a report.
var homeSpec = Spec{
	Name: "homecli", Executable: "sh", Options: Common(),
	NeedsDir:    func(options.Values) bool { return true },
	PrivateHome: func(ports.AgentRequest, options.Values) bool { return true },
	Plan: func(req ports.AgentRequest, _ options.Values, dir string, _ []string) (Plan, error) {
		home := filepath.Join(dir, "home")
		p := Plan{Dirs: []string{home}, Forced: map[string]string{"H": home},
			Files: []File{{Path: filepath.Join(dir, "call.json"), Data: []byte(req.Step)}}}
		if Continues(req) {
			p.Forced["SID"] = req.Session.ID
		}
		script := `[ "$1" = fail ] && exit 1
n=$(cat "$H/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$H/count"
printf '{"out":"%s","id":"%s"}' "$n" "${SID:-sess-$$}"`
		p.Args = []string{"-c", script, "homecli", req.Prompt}
		return p, nil
	},
	Parse: func(r Result) (ports.AgentResult, error) {
		var rep struct{ Out, ID string }
		err := json.Unmarshal(r.Stdout, &rep)
		return ports.AgentResult{Output: rep.Out, SessionID: rep.ID}, err
	},
}

func TestSessionHomesLiveForTheRunAndAreFoundByID(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	sessions := filepath.Join(tmp, "run", "sessions")
	p := New(homeSpec, Config{Environ: []string{"PATH=/usr/bin:/bin", "HOME=" + tmp}, Linger: 50 * time.Millisecond})
	ctx := context.Background()
	run := func(req ports.AgentRequest) (ports.AgentResult, error) {
		req.SessionDir = sessions
		if req.Prompt == "" {
			req.Prompt = "hi"
		}
		return p.Run(ctx, req)
	}
	dirs := func() []string {
		d, _ := filepath.Glob(filepath.Join(sessions, "homecli", "session-*"))
		return d
	}

	first, err := run(ports.AgentRequest{Step: "seed", KeepSession: true})
	if err != nil || first.Output != "1" || !strings.HasPrefix(first.SessionID, "sess-") {
		t.Fatalf("first call %+v, %v", first, err)
	}
	kept := dirs()
	if len(kept) != 1 {
		t.Fatalf("session directories %v, want one", kept)
	}
	for _, d := range []string{filepath.Join(sessions, "homecli"), kept[0]} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s is not private: %v %v", d, fi.Mode(), err)
		}
	}
	if _, err := os.Stat(filepath.Join(kept[0], "call.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the call's own file outlived the call: %v", err)
	}

	// Turns continue in the same home, found by the id; the session keeps its id.
	for want := 2; want <= 3; want++ {
		next, err := run(ports.AgentRequest{Step: "recall", Session: &ports.AgentSession{ID: first.SessionID, Turns: want - 1}})
		if err != nil || next.Output != string(rune('0'+want)) || next.SessionID != first.SessionID {
			t.Fatalf("turn %d: %+v, %v", want, next, err)
		}
	}

	// Another conversation gets a home of its own; a plain call keeps nothing.
	if other, err := run(ports.AgentRequest{Step: "other", KeepSession: true}); err != nil || other.Output != "1" || other.SessionID == first.SessionID {
		t.Fatalf("another conversation %+v, %v", other, err)
	}
	if plain, err := run(ports.AgentRequest{Step: "plain"}); err != nil || plain.Output != "1" {
		t.Fatalf("plain call %+v, %v", plain, err)
	}
	if _, err := run(ports.AgentRequest{Step: "broken", KeepSession: true, Prompt: "fail"}); err == nil {
		t.Fatal("a failing CLI must fail the call")
	}
	if got := dirs(); len(got) != 2 {
		t.Errorf("session directories %v: want the two conversations only (a plain call and a call that reported no session keep none)", got)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "awf-homecli-*")); len(left) != 0 {
		t.Errorf("a plain call's private directory outlived it: %v", left)
	}
}

func TestSessionsNotKeptAreRefusedClearly(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	p := New(homeSpec, Config{Environ: []string{"PATH=/usr/bin:/bin", "HOME=" + tmp}, Linger: 50 * time.Millisecond})
	sessions := filepath.Join(tmp, "sessions")
	tests := []struct {
		name, dir, id, want string
	}{
		{"an id this run never saw", sessions, "3f1c-unknown", "which awf did not keep in this run's private homecli home"},
		{"an id that is a path", sessions, "../../etc", "which awf did not keep"},
		{"a run that keeps no sessions", "", "3f1c", "this awf keeps no homecli sessions in this run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Run(context.Background(), ports.AgentRequest{Step: "recall", Prompt: "p", SessionDir: tt.dir, Session: &ports.AgentSession{ID: tt.id}})
			if fault.CodeOf(err) != fault.UserConversationNoSession || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %s with %q", err, fault.UserConversationNoSession, tt.want)
			}
		})
	}
	// A CLI whose options give it no private home keeps its sessions where it always does.
	own := homeSpec
	own.PrivateHome = func(ports.AgentRequest, options.Values) bool { return false }
	if _, err := New(own, Config{Environ: []string{"PATH=/usr/bin:/bin", "HOME=" + tmp}}).Run(context.Background(),
		ports.AgentRequest{Step: "recall", Prompt: "p", SessionDir: sessions, Session: &ports.AgentSession{ID: "x"}}); err != nil {
		t.Fatalf("a session in the user's own store is left to the CLI: %v", err)
	}
}

// Calls in one session directory take turns: a second waits for the first, until its context
// ends.
func TestSessionDirectoryLock(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := lockDir(ctx, dir); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second holder got the lock: %v", err)
	}
	unlock()
	again, err := lockDir(context.Background(), dir)
	if err != nil {
		t.Fatalf("the lock was not released: %v", err)
	}
	again()
}
