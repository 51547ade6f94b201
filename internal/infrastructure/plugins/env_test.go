package plugins

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestPluginEnv(t *testing.T) {
	environ := []string{"PATH=/bin", "HOME=/h", "LANG=C.UTF-8", "LC_ALL=C", "TERM=xterm", "TZ=UTC", "TMPDIR=/t", "USER=u",
		"OPENAI_API_KEY=sk-secret", "ANTHROPIC_API_KEY=sk-ant", "AWS_SECRET_ACCESS_KEY=aws", "FOO=bar", "EMPTY="}
	for _, tc := range []struct {
		name    string
		env     []string
		want    []string
		missing string
	}{
		{"base only", nil, []string{"LC_ALL=C", "PATH=/bin", "HOME=/h", "LANG=C.UTF-8", "TERM=xterm", "TZ=UTC", "TMPDIR=/t", "USER=u"}, ""},
		{"declared with expansion", []string{"TOKEN=${FOO}-x", "PLAIN=v", "BARE=$FOO", "E=${EMPTY}"},
			[]string{"LC_ALL=C", "PATH=/bin", "HOME=/h", "LANG=C.UTF-8", "TERM=xterm", "TZ=UTC", "TMPDIR=/t", "USER=u", "TOKEN=bar-x", "PLAIN=v", "BARE=bar", "E="}, ""},
		{"declared key passes", []string{"OPENAI_API_KEY=${OPENAI_API_KEY}"}, nil, ""},
		{"unset reference", []string{"TOKEN=${NOPE}"}, nil, "NOPE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pluginEnv(Spec{Name: "p", Env: tc.env}, "plugins.yaml", environ)
			if tc.missing != "" {
				if fault.CodeOf(err) != fault.UserPluginsEnvUnset || !strings.Contains(err.Error(), tc.missing) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
			joined := strings.Join(got, "\n")
			if tc.name != "declared key passes" && (strings.Contains(joined, "sk-") || strings.Contains(joined, "aws")) {
				t.Fatalf("a secret reached the plugin: %q", got)
			}
		})
	}
}

// TestPluginProcessEnvironHasNoModelKey reads the running plugin's /proc/<pid>/environ.
func TestPluginProcessEnvironHasNoModelKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-plugin-secret")
	t.Setenv("AWF_TEST_FOO", "bar")
	f := newFixture(t, "  envy:\n    command: ECHO\n    env: {TOKEN: \"${AWF_TEST_FOO}-x\"}\n", Options{})
	data, _ := os.ReadFile(f.file)
	os.WriteFile(f.file, []byte(strings.ReplaceAll(string(data), "ECHO", f.bins["echo"])), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := f.host.Execute(ctx, "envy", "echo", json.RawMessage(`{"text":"hi"}`)); err != nil {
		t.Fatal(err)
	}
	pid := f.pid(t, "envy")
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		t.Skip(err)
	}
	s := string(env)
	if strings.Contains(s, "sk-plugin-secret") || !strings.Contains(s, "TOKEN=bar-x") || !strings.Contains(s, "PATH=") {
		t.Fatalf("plugin environ: %q", strings.ReplaceAll(s, "\x00", " "))
	}
}

func TestExpandPairs(t *testing.T) {
	out, err := expandPairs(Spec{Name: "p"}, "header", []string{"A=Bearer ${T}", "B=x"}, []string{"T=tok"}, "f")
	if err != nil || strings.Join(out, "|") != "A=Bearer tok|B=x" {
		t.Errorf("%v %v", out, err)
	}
	if _, err := expandPairs(Spec{Name: "p"}, "header", []string{"A=${NOPE}"}, nil, "f"); err == nil || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("err = %v", err)
	}
}
