package sandbox

import (
	"reflect"
	"testing"
)

func TestTempEnv(t *testing.T) {
	got := TempEnv([]string{"PATH=/bin", "TMPDIR=/old", "GOCACHE=/home/u/.cache/go", "A=1"}, "/p")
	want := []string{"PATH=/bin", "A=1", "TMPDIR=/p", "TMP=/p", "TEMP=/p", "GOCACHE=/p/go-build", "GOTMPDIR=/p",
		"XDG_CACHE_HOME=/p/cache", "npm_config_cache=/p/npm", "PIP_CACHE_DIR=/p/pip", "PYTHONPYCACHEPREFIX=/p/pycache"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestProtectedPaths(t *testing.T) {
	got := ProtectedPaths("/a/b", []string{"/x/plugin"})
	want := []string{"/a/b/.awf", "/a/b/.git/", "/a/.awf", "/a/.git/", "/.awf", "/.git/", "/x/plugin"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q", got)
	}
}

func TestProtects(t *testing.T) {
	set := []string{"/r/.awf", "/r/.git/hooks/", "/r/.git/config", "/r/bin/awf"}
	for path, want := range map[string]bool{
		"/r/.awf": true, "/r/.awf/plugins.yaml": true, "/r/.git/hooks/pre-commit": true, "/r/.git/config": true,
		"/r/bin/awf": true, "/r/.awfx": false, "/r/.git/config.lock": false, "/r/.git/HEAD": false, "/r/bin": false, "/r/a.txt": false,
	} {
		if got := Protects(set, path); got != want {
			t.Errorf("Protects(%s) = %v, want %v", path, got, want)
		}
	}
}

func TestProbeWithoutHelper(t *testing.T) {
	st := Probe("/nonexistent/awf-helper")
	if st.Enforced || st.Reason == "" {
		t.Fatalf("a missing helper was reported as %+v", st)
	}
	if again := Probe("/nonexistent/awf-helper"); again != st {
		t.Fatal("the probe is not cached")
	}
}
