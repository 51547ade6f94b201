package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// buildInfo is what `awf version` reports: enough to tell which source a binary was built from
// and for which platform, whether it came from `make build`/`make dist` (which stamp the version
// with -ldflags) or from `go install …@version` (which stamps the module version instead).
type buildInfo struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"`
	Modified   bool   `json:"modified,omitempty"`
	Go         string `json:"go"`
	Platform   string `json:"platform"`
	Module     string `json:"module,omitempty"`
}

// commit is set by `make dist` and `make image` with -ldflags "-X main.commit=…", for builds
// whose Go toolchain records no VCS information (-buildvcs=false, a tree without git).
var commit = ""

// currentBuild reads the binary's own build information.
func currentBuild() buildInfo {
	info, _ := debug.ReadBuildInfo()
	b := describeBuild(version, info)
	if b.Commit == "" {
		b.Commit = commit
	}
	return b
}

// describeBuild merges the -ldflags version (stamp) with the build information the Go toolchain
// embeds: the module version of a `go install …@v1.2.3` build and the VCS settings of a build
// from a checkout. The stamp wins when it was set; "dev" is left only when neither says more.
func describeBuild(stamp string, info *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: stamp, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info == nil {
		return b
	}
	b.Module = info.Main.Path
	if (stamp == "" || stamp == "dev") && info.Main.Version != "" && info.Main.Version != "(devel)" {
		b.Version = info.Main.Version
	}
	if info.GoVersion != "" {
		b.Go = info.GoVersion
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.CommitTime = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	if b.Commit == "" {
		b.Commit = pseudoCommit(info.Main.Version)
	}
	return b
}

// pseudoCommit is the commit a pseudo-version names (v0.0.0-20260101000000-abcdef123456): a
// `go install …@<commit>` build carries no VCS settings, only that version.
func pseudoCommit(v string) string {
	n := len(v)
	if n < 13 || v[n-13] != '-' {
		return ""
	}
	tail := v[n-12:]
	for _, c := range tail {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	return tail
}

// text is the one-line-per-field form people read.
func (b buildInfo) text(w io.Writer) {
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	}
	if b.Modified {
		commit += " (modified)"
	}
	fmt.Fprintf(w, "awf %s\ncommit:   %s\n", b.Version, commit)
	if b.CommitTime != "" {
		fmt.Fprintf(w, "built at: %s\n", b.CommitTime)
	}
	fmt.Fprintf(w, "go:       %s\nplatform: %s\n", b.Go, b.Platform)
}

func newVersionCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version [--format text|json]",
		Short: "Show the version, commit, Go version and platform this awf was built from and for",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			b := currentBuild()
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), b)
			}
			b.text(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}
