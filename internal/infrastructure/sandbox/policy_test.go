package sandbox

import (
	"reflect"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestDecodePolicy(t *testing.T) {
	good := Policy{Policy: PolicyWrite, Root: "/r", TmpDir: "/t", Writable: []string{"/w"}, Network: true}
	enc, err := good.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decodePolicy(enc); err != nil || !reflect.DeepEqual(got, good) {
		t.Fatalf("round trip %+v %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "no policy"},
		{"{", "not valid JSON"},
		{`{"policy":"admin","root":"/r","tmp_dir":"/t"}`, `unknown policy "admin"`},
		{`{"policy":"read","tmp_dir":"/t"}`, "without root"},
		{`{"policy":"read","root":"/r"}`, "without root or tmp_dir"},
	} {
		if _, err := decodePolicy(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestWritablePaths(t *testing.T) {
	p := Policy{Policy: PolicyRead, Root: "/r", TmpDir: "/t", Writable: []string{"/w"}}
	if got := p.writablePaths(); !reflect.DeepEqual(got, []string{"/t"}) {
		t.Fatalf("read: %v", got)
	}
	for _, v := range []string{PolicyWrite, PolicyDestructive} {
		p.Policy = v
		if got := p.writablePaths(); !reflect.DeepEqual(got, []string{"/t", "/r", "/w"}) {
			t.Fatalf("%s: %v", v, got)
		}
	}
}

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

func TestMountHelpers(t *testing.T) {
	for in, want := range map[string]string{`/a\040b`: "/a b", `/plain`: "/plain", `/x\134y`: `/x\y`, `/bad\09`: `/bad\09`, `/end\04`: `/end\04`} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescape %q = %q, want %q", in, got, want)
		}
	}
	for _, tc := range []struct {
		p, dir string
		want   bool
	}{{"/proc", "/proc", true}, {"/proc/sys", "/proc", true}, {"/procx", "/proc", false}, {"/", "/", true}, {"/a", "/", true}} {
		if got := under(tc.p, tc.dir); got != tc.want {
			t.Errorf("under(%q, %q) = %v", tc.p, tc.dir, got)
		}
	}
	if !underAny("/r/sub", []string{"/t", "/r/"}) || underAny("/rx", []string{"/r"}) {
		t.Error("underAny")
	}
	pts, err := mountPoints()
	if err != nil || len(pts) == 0 || pts[0] != "/" && !strings.HasPrefix(pts[0], "/") {
		t.Fatalf("mountPoints %v %v", pts, err)
	}
}

func TestHandledFS(t *testing.T) {
	if handledFS(1)&unix.LANDLOCK_ACCESS_FS_REFER != 0 || handledFS(2)&unix.LANDLOCK_ACCESS_FS_REFER == 0 {
		t.Error("REFER comes with ABI 2")
	}
	if handledFS(2)&unix.LANDLOCK_ACCESS_FS_TRUNCATE != 0 || handledFS(3)&unix.LANDLOCK_ACCESS_FS_TRUNCATE == 0 {
		t.Error("TRUNCATE comes with ABI 3")
	}
	if handledFS(4)&unix.LANDLOCK_ACCESS_FS_IOCTL_DEV != 0 || handledFS(5)&unix.LANDLOCK_ACCESS_FS_IOCTL_DEV == 0 {
		t.Error("IOCTL_DEV comes with ABI 5")
	}
	if handledFS(1)&unix.LANDLOCK_ACCESS_FS_MAKE_SYM == 0 {
		t.Error("ABI 1 rights missing")
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
