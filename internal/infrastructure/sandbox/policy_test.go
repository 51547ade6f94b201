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
	want := []string{"/a/b/.awf", "/a/b/.git/hooks", "/a/b/.git/config", "/a/.awf", "/a/.git/hooks", "/a/.git/config",
		"/.awf", "/.git/hooks", "/.git/config", "/x/plugin"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q", got)
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
