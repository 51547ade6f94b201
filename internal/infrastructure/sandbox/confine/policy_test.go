package confine

import (
	"reflect"
	"strings"
	"testing"
)

func TestArgsRoundTrip(t *testing.T) {
	for _, p := range []Policy{
		{Policy: PolicyWrite, Root: "/r", TmpDir: "/t", Writable: []string{"/w", "/with space", "-policy"}, Protected: []string{"/r/.awf", "/x\ny"}, Hidden: []string{"/h/.ssh", "-hide"}, Network: true},
		{Policy: PolicyRead, Root: "/r", TmpDir: "/t", Network: false, Probe: true},
		{Policy: PolicyWrite, Root: "/r", TmpDir: "/t", Network: false, Proxy: "/tmp/awf-egress-1/c1.sock"},
	} {
		cmd := []string{"/bin/bash", "-c", "echo -- -policy"}
		if p.Probe {
			cmd = []string{}
		}
		got, gotCmd, err := ParseArgs(p.Args(cmd))
		if err != nil || !reflect.DeepEqual(got, p) || !reflect.DeepEqual(gotCmd, cmd) {
			t.Fatalf("round trip %+v %q %v, want %+v %q", got, gotCmd, err, p, cmd)
		}
	}
}

func TestParseArgsRejects(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, "no -- before the command"},
		{[]string{"-policy", "read", "-root", "/r", "-tmp", "/t"}, "no -- before"},
		{[]string{"-policy", "admin", "-root", "/r", "-tmp", "/t", "--"}, `unknown policy "admin"`},
		{[]string{"-policy", "read", "-tmp", "/t", "--"}, "without root"},
		{[]string{"-policy", "read", "-root", "/r", "--"}, "without root or temp directory"},
		{[]string{"-policy", "read", "-root", "/r", "-tmp", "/t", "-bogus", "--"}, "unknown helper option -bogus"},
		{[]string{"-policy", "read", "-root"}, "-root needs a value"},
		{[]string{"-policy", "read", "-root", "/r", "-tmp", "/t", "-egress-proxy", "/s", "--"}, "an egress proxy needs a namespace without network"},
		{[]string{"-policy", "read", "-root", "/r", "-tmp", "/t", "-no-network", "-egress-proxy"}, "-egress-proxy needs a value"},
	} {
		if _, _, err := ParseArgs(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
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

func TestItoa(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 10: "10", 63: "63", 1234567: "1234567"} {
		if got := itoa(n); got != want {
			t.Errorf("itoa(%d) = %q", n, got)
		}
	}
}
