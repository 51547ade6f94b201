package confine

import (
	"reflect"
	"testing"
)

func TestRules(t *testing.T) {
	p := Policy{Policy: PolicyRead, Root: "/r", TmpDir: "/t", Writable: []string{"/w"}}
	paths := func() []string {
		var out []string
		for _, r := range rules(p) {
			out = append(out, r.path)
		}
		return out
	}
	read := append([]string{"/", "/t"}, devices...)
	if got := paths(); !reflect.DeepEqual(got, read) {
		t.Fatalf("read rules %q", got)
	}
	p.Policy = PolicyWrite
	if got := paths(); !reflect.DeepEqual(got, append(read, "/r", "/w")) {
		t.Fatalf("write rules %q", got)
	}
	r := rules(p)
	if r[0].access != fsRead || r[0].optional || r[1].access != ^uint64(0) || !r[2].optional || r[2].access != fsFileRW {
		t.Fatalf("rights %+v", r[:3])
	}
}

func TestHandledFS(t *testing.T) {
	for _, tc := range []struct {
		abi       int
		has, lack uint64
	}{
		{1, fsABI1, fsRefer | fsTruncate | fsIoctlDev},
		{2, fsABI1 | fsRefer, fsTruncate | fsIoctlDev},
		{3, fsABI1 | fsRefer | fsTruncate, fsIoctlDev},
		{4, fsABI1 | fsRefer | fsTruncate, fsIoctlDev},
		{5, fsABI1 | fsRefer | fsTruncate | fsIoctlDev, 0},
	} {
		h := handledFS(tc.abi)
		if h&tc.has != tc.has || h&tc.lack != 0 {
			t.Errorf("ABI %d: %b", tc.abi, h)
		}
	}
}

func TestRulesetSize(t *testing.T) {
	for _, tc := range []struct {
		abi    int
		size   uintptr
		scoped uint64
	}{{1, 8, 0}, {3, 8, 0}, {4, 16, 0}, {5, 16, 0}, {6, 24, scopeSignal | scopeAbstractUnixSocket}, {7, 24, scopeSignal | scopeAbstractUnixSocket}} {
		var a rulesetAttr
		if got := rulesetSize(tc.abi, &a); got != tc.size || a.scoped != tc.scoped {
			t.Errorf("ABI %d: size %d scoped %b", tc.abi, got, a.scoped)
		}
	}
}

func TestProtectHelpers(t *testing.T) {
	if p, dir := trimSlash("/r/.git/"); p != "/r/.git" || !dir {
		t.Errorf("trimSlash dir: %q %v", p, dir)
	}
	if p, dir := trimSlash("/r/bin/awf"); p != "/r/bin/awf" || dir {
		t.Errorf("trimSlash file: %q %v", p, dir)
	}
	if got := beneath("/r/sub/.git/hooks", []string{"/t", "/r", "/r/sub", "/rs"}); got != "/r/sub" {
		t.Errorf("beneath: %q", got)
	}
	if got := beneath("/r", []string{"/r", "/x"}); got != "" {
		t.Errorf("a writable path is not beneath itself: %q", got)
	}
	if got := beneath("/a", []string{"/"}); got != "/" {
		t.Errorf("beneath /: %q", got)
	}
	if got := between("/r", "/r/a/b/.git/hooks"); !reflect.DeepEqual(got, []string{"/r/a", "/r/a/b", "/r/a/b/.git"}) {
		t.Errorf("between: %q", got)
	}
	if got := between("/r", "/r/.awf"); len(got) != 0 {
		t.Errorf("between a child: %q", got)
	}
}

func TestPlaceholderContent(t *testing.T) {
	if got := string(placeholderContent("/r/.git/commondir")); got != ".\n" {
		t.Errorf("commondir: %q", got)
	}
	if got := placeholderContent("/r/.git/config"); len(got) != 0 {
		t.Errorf("config: %q", got)
	}
	if got := placeholderContent("/r/xcommondir"); len(got) != 0 {
		t.Errorf("a name ending in commondir: %q", got)
	}
}
