package runrecord

import (
	"testing"
	"time"
)

func TestEffectiveAndResumable(t *testing.T) {
	alive := func(pid int) bool { return pid == 7 }
	tests := []struct {
		status    string
		pid       int
		want      string
		resumable bool
	}{
		{Running, 7, Running, false},
		{Running, 8, Crashed, true},
		{Running, 0, Crashed, true},
		{Succeeded, 8, Succeeded, false},
		{Failed, 7, Failed, true},
		{Interrupted, 0, Interrupted, true},
	}
	for _, tt := range tests {
		r := Record{Status: tt.status, PID: tt.pid}
		if got := r.Effective(alive); got != tt.want {
			t.Errorf("%s pid %d: %s, want %s", tt.status, tt.pid, got, tt.want)
		}
		if got := r.Resumable(alive); got != tt.resumable {
			t.Errorf("%s pid %d resumable %v", tt.status, tt.pid, got)
		}
	}
}

func TestDurationAndMain(t *testing.T) {
	t0 := time.Unix(100, 0)
	r := Record{Started: t0, Updated: t0.Add(2 * time.Second)}
	if r.Duration() != 2*time.Second {
		t.Fatalf("running duration %v", r.Duration())
	}
	r.Ended = t0.Add(5 * time.Second)
	if r.Duration() != 5*time.Second {
		t.Fatalf("ended duration %v", r.Duration())
	}
	if (Record{Started: t0, Updated: t0.Add(-time.Second)}).Duration() != 0 {
		t.Fatal("negative duration")
	}
	r.Steps = []Step{{Name: "a"}, {Name: "x", Within: "l[0]"}, {Name: "l"}}
	if m := r.Main(); len(m) != 2 || m[0].Name != "a" || m[1].Name != "l" {
		t.Fatalf("main %v", m)
	}
	if Hash([]byte("a")) != "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb" || Hash([]byte("a")) == Hash([]byte("b")) {
		t.Fatal("hash")
	}
}

func TestCanonical(t *testing.T) {
	tests := map[string]string{"success": Succeeded, "succeeded": Succeeded, "completed": Succeeded, "failed": Failed,
		"failure": Failed, "error": Errored, "cancelled": Interrupted, "crashed": Crashed, "running": Running, "runing": "", "": ""}
	for in, want := range tests {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestApplyEntries(t *testing.T) {
	r := Record{Seq: 2, Active: []string{"l[0]/x"}}
	if r.Apply(Entry{N: 2, Current: "old"}) || r.Current != "" {
		t.Fatalf("an entry the record holds was applied: %+v", r)
	}
	at := time.Unix(50, 0)
	if !r.Apply(Entry{N: 3, At: at, Current: "b", Started: "l[1]/x", Step: &Step{Name: "x", Within: "l[0]"}, Masked: []string{"m"}}) {
		t.Fatal("entry 3 not applied")
	}
	if r.Seq != 3 || r.Current != "b" || len(r.Steps) != 1 || len(r.Active) != 1 || r.Active[0] != "l[1]/x" || !r.Updated.Equal(at) || r.Masked[0] != "m" {
		t.Fatalf("after entry 3: %+v", r)
	}
	r.Apply(Entry{N: 4, Status: Succeeded})
	if r.Status != Succeeded {
		t.Fatalf("status %q", r.Status)
	}
}
