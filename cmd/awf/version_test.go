package main

import (
	"runtime/debug"
	"testing"
)

func TestDescribeBuild(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-28T12:00:00Z"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name, stamp         string
		info                *debug.BuildInfo
		wantVersion, commit string
		modified            bool
	}{
		{"ldflags win", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "v9.9.9"}, Settings: vcs}, "v1.2.3", "0123abcd", true},
		{"go install of a tag", "dev", &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "v0.4.0"}}, "v0.4.0", "", false},
		{"go install of a commit", "dev", &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "v0.0.0-20261128120000-0123456789ab"}}, "v0.0.0-20261128120000-0123456789ab", "0123456789ab", false},
		{"checkout build", "dev", &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "(devel)"}, Settings: vcs}, "dev", "0123abcd", true},
		{"no build info", "dev", nil, "dev", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := describeBuild(tt.stamp, tt.info)
			if b.Version != tt.wantVersion || b.Commit != tt.commit || b.Modified != tt.modified {
				t.Fatalf("got %+v, want version %q commit %q modified %v", b, tt.wantVersion, tt.commit, tt.modified)
			}
			if b.Platform == "" || b.Go == "" {
				t.Fatalf("platform or Go version missing: %+v", b)
			}
		})
	}
}

func TestPseudoCommit(t *testing.T) {
	for v, want := range map[string]string{
		"v0.0.0-20261128120000-0123456789ab":   "0123456789ab",
		"v1.2.4-0.20261128120000-abcdefabcdef": "abcdefabcdef",
		"v1.2.3":                               "",
		"v0.0.0-20261128120000-0123456789aZ":   "",
		"":                                     "",
	} {
		if got := pseudoCommit(v); got != want {
			t.Errorf("pseudoCommit(%q) = %q, want %q", v, got, want)
		}
	}
}
