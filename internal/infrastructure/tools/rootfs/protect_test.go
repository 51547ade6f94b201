package rootfs

import "testing"

func TestProtectedWhy(t *testing.T) {
	for _, tc := range []struct {
		real string
		want bool
	}{
		{"/r/.awf", true}, {"/r/.awf/x", true}, {"/r/a/.awf/x", true}, {"/r/.awfx", false},
		{"/r/.git/config", true}, {"/r/.git/hooks", true}, {"/r/.git/hooks/a", true},
		{"/r/.git/configx", false}, {"/r/.git/HEAD", false}, {"/r/config", false}, {"/r/hooks/x", false},
		{"/r/.git", true}, {"/r/sub/.git", true}, {"/r/.git/commondir", true}, {"/r/.gitmodules", false}, {"/r/bin/plug", true}, {"/r/bin/plug/x", true}, {"/r/bin/plugx", false},
		{"/p/.awf/runs/r1/activity.jsonl", true}, {"/home/u/.awfx/a", false},
	} {
		if got := ProtectedWhy(tc.real, []string{"/r/bin/plug"}) != ""; got != tc.want {
			t.Errorf("%s: protected=%v, want %v", tc.real, got, tc.want)
		}
	}
}
