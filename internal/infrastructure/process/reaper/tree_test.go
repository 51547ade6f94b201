package reaper

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

func TestDescendantsFindsGrandchildren(t *testing.T) {
	// sh starts sleep as its child (not exec: the trailing true keeps sh alive).
	cmd := exec.Command("sh", "-c", "sleep 30 & echo $!; wait; true")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var b [32]byte
	n, _ := out.Read(b[:])
	var grandchild int
	for _, c := range b[:n] {
		if c >= '0' && c <= '9' {
			grandchild = grandchild*10 + int(c-'0')
		}
	}
	ds := Descendants(os.Getpid())
	if !slices.Contains(ds, cmd.Process.Pid) || !slices.Contains(ds, grandchild) {
		t.Fatalf("descendants %v lack child %d or grandchild %d", ds, cmd.Process.Pid, grandchild)
	}
	if ds := Descendants(grandchild); len(ds) != 0 {
		t.Fatalf("a sleeping leaf has descendants %v", ds)
	}
}

func TestWithout(t *testing.T) {
	got := Without([]string{"A=1", "AB=2", "B=3", "A", "C=A=1"}, "A", "B")
	if want := []string{"AB=2", "A", "C=A=1"}; !slices.Equal(got, want) {
		t.Fatalf("Without = %v, want %v", got, want)
	}
}

func TestWithTokenNeedsExactToken(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	cmd.Env = []string{TokenEnv + "=abc123", "X=1"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if ps := WithToken("abc123"); !slices.Contains(ps, cmd.Process.Pid) {
		t.Fatalf("WithToken missed %d: %v", cmd.Process.Pid, ps)
	}
	if ps := WithToken("abc12"); slices.Contains(ps, cmd.Process.Pid) || len(WithToken("")) != 0 {
		t.Fatal("a prefix of the token or an empty token matched")
	}
}
