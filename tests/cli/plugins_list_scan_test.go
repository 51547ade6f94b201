package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPluginsListShowsFindings: `awf plugins list` shows the scan of what each plugin says
// about its tools: the number of findings per plugin, the tool a high finding holds out of
// every step marked held (text and JSON), the held mark gone once `awf plugins lock --accept`
// accepts it (the finding still counted), and the server's text escaped.
func TestPluginsListShowsFindings(t *testing.T) {
	bin := scanFixture(t, t.TempDir())
	dir := scanProject(t, bin, "hidden-characters", "lookup")
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	type listed struct {
		Plugins []struct {
			Name       string
			Findings   *int
			Operations []struct {
				Name string
				Held bool
			}
		}
	}
	list := func(wantHeld bool) {
		t.Helper()
		text := awf(t, dir, env, "plugins", "list")
		if text.code != 0 || strings.ContainsAny(text.stdout, "\x1b\u200b\U000E0061") {
			t.Fatalf("plugins list: exit %d, raw server text or not:\n%q\n%s", text.code, text.stdout, text.stderr)
		}
		var held []string
		for _, line := range strings.Split(text.stdout, "\n") {
			if strings.Contains(line, "(held)") {
				held = append(held, strings.Fields(line)[0])
			}
		}
		if wantHeld != (strings.Join(held, ",") == "lookup") || !wantHeld && len(held) > 0 {
			t.Errorf("held rows %v, want lookup held: %v\n%s", held, wantHeld, text.stdout)
		}
		if !strings.Contains(text.stdout, "  scan: 1 finding(s)") || strings.Count(text.stdout, "scan:") != 1 ||
			strings.Contains(text.stdout, "held out of every step") != wantHeld {
			t.Errorf("scan line (held %v):\n%s", wantHeld, text.stdout)
		}
		js := awf(t, dir, env, "plugins", "list", "--format", "json")
		var doc listed
		if err := json.Unmarshal([]byte(js.stdout), &doc); js.code != 0 || err != nil {
			t.Fatalf("plugins list --format json: exit %d, %v\n%s%s", js.code, err, js.stdout, js.stderr)
		}
		got := map[string]string{}
		for _, p := range doc.Plugins {
			if p.Findings == nil {
				t.Fatalf("%s: no findings count\n%s", p.Name, js.stdout)
			}
			for _, op := range p.Operations {
				if op.Held {
					got[p.Name] += op.Name
				}
			}
			got[p.Name+" findings"] = strings.Repeat("*", *p.Findings)
		}
		want := map[string]string{"clean findings": "", "bad findings": "*"}
		if wantHeld {
			want["bad"] = "lookup"
		}
		if len(got) != len(want) || got["bad"] != want["bad"] || got["bad findings"] != "*" || got["clean findings"] != "" {
			t.Errorf("JSON held and findings %v, want %v\n%s", got, want, js.stdout)
		}
	}
	list(true)
	if r := awf(t, dir, env, "plugins", "lock", "--accept", "bad/lookup"); r.code != 0 {
		t.Fatalf("lock --accept: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	list(false)
	if r := awf(t, dir, env, "plugins", "list", "--no-start", "--format", "json"); r.code != 0 || strings.Contains(r.stdout, "findings") {
		t.Errorf("--no-start scans nothing, so shows no count: exit %d\n%s", r.code, r.stdout)
	}
}
