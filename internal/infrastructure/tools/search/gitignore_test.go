package search

import "testing"

func TestGitignoreRules(t *testing.T) {
	root := &ignoreNode{rules: parseGitignore([]byte(
		"# comment\n\n*.log\n!keep.log\nbuild/\n/top.txt\ndocs/*.tmp\n**/gen/**\n\\#hash\ntrailing   \n[ab].bin\nnode_modules\r\n"))}
	sub := &ignoreNode{parent: root, dir: "pkg", rules: parseGitignore([]byte("local.txt\n!*.log\n/anchored\n"))}
	tests := []struct {
		node *ignoreNode
		rel  string
		dir  bool
		want bool
	}{
		{root, "x.log", false, true},
		{root, "deep/dir/x.log", false, true},
		{root, "keep.log", false, false},
		{root, "build", true, true},
		{root, "build", false, false}, // "build/" matches directories only
		{root, "a/build", true, true},
		{root, "top.txt", false, true},
		{root, "a/top.txt", false, false}, // anchored
		{root, "docs/x.tmp", false, true},
		{root, "a/docs/x.tmp", false, false},
		{root, "a/gen/x.go", false, true},
		{root, "#hash", false, true},
		{root, "trailing", false, true},
		{root, "a.bin", false, true},
		{root, "c.bin", false, false},
		{root, "node_modules", true, true},
		{root, "main.go", false, false},
		{sub, "pkg/local.txt", false, true},
		{sub, "pkg/x.log", false, false},  // deeper negation wins
		{sub, "other/x.log", false, true}, // sub's rules apply only below pkg
		{sub, "pkg/anchored", false, true},
		{sub, "pkg/a/anchored", false, false},
		{sub, "pkg/build", true, true}, // inherited
	}
	for _, tt := range tests {
		name := tt.rel[lastSlash(tt.rel)+1:]
		if got := tt.node.ignored(tt.rel, name, tt.dir); got != tt.want {
			t.Errorf("ignored(%q, dir=%v) = %v, want %v", tt.rel, tt.dir, got, tt.want)
		}
	}
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}
