package cli_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const egressWorkflow = `name: egress
states:
  initial: fetch
  fetch:
    type: agent
    provider: openai_compatible
    prompt: hi
    mcp_proxy:
      enable: true
      sandbox:
        mode: required
        network:
          allow: ["127.0.0.1:%s"]
    on_success: done
    on_failure: done
  done:
    type: terminal
`

// TestEgressThroughTheBinary drives a step's network allow list through bin/awf: Bash reaches
// server A through the proxy and not B, a direct connection fails, and `awf activity list
// --kind network` shows one allowed record for A (method, path, bytes) and one denied for B.
func TestEgressThroughTheBinary(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed: the commands use it")
	}
	serve := func(name string) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, name+" "+r.URL.Path) }))
		t.Cleanup(s.Close)
		u, _ := url.Parse(s.URL)
		return u.Port()
	}
	a, b := serve("server-A"), serve("server-B")
	dir := project(t, map[string]string{"egress.yaml": fmt.Sprintf(egressWorkflow, a)})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	bash := func(command string) result {
		args, _ := json.Marshal(map[string]string{"command": command})
		return awf(t, dir, env, "call", "tool-destructive", "Bash", "--args", string(args), "--workflow", "egress", "--step", "fetch")
	}
	if r := awf(t, dir, env, "validate", "egress"); r.code != 0 {
		t.Fatalf("validate: %s%s", r.stdout, r.stderr)
	}
	// mode: required where the kernel cannot sandbox: the call fails with this code. The test
	// then skips (as sandboxtest would; this package stays out of the unprivileged CI run, whose
	// Bash-tool tests cover the same path as a normal user), unless AWF_REQUIRE_SANDBOX=1.
	if r := bash("true"); strings.Contains(r.stdout+r.stderr, "USER.SANDBOX.UNAVAILABLE") {
		if os.Getenv("AWF_REQUIRE_SANDBOX") == "1" {
			t.Fatalf("AWF_REQUIRE_SANDBOX=1, yet: %s%s", r.stdout, r.stderr)
		}
		t.Skipf("the kernel cannot sandbox here: %s", strings.TrimSpace(r.stderr))
	}
	if r := bash("curl -sS --max-time 10 http://127.0.0.1:" + a + "/hello"); r.code != 0 || !strings.Contains(r.stdout, "server-A /hello") {
		t.Fatalf("curl to A: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := bash("curl -sS --max-time 10 http://127.0.0.1:" + b + "/"); strings.Contains(r.stdout, "server-B") || !strings.Contains(r.stdout, "refused (not in the allow list)") {
		t.Fatalf("curl to B: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := bash("curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:" + a + "/"); strings.Contains(r.stdout, "server-A") || !strings.Contains(r.stdout+r.stderr, "exit code") {
		t.Fatalf("curl --noproxy reached A: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	r := awf(t, dir, env, "activity", "list", "--run", "cli", "--kind", "network", "-o", "json")
	var recs []struct {
		Outcome string
		Network struct {
			Host, Method, Path, Decision, Rule string
			Port                               int
			BytesIn                            int64 `json:"bytes_in"`
			BytesOut                           int64 `json:"bytes_out"`
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || r.code != 0 {
		t.Fatalf("activity: %v %s%s", err, r.stdout, r.stderr)
	}
	if len(recs) != 2 {
		t.Fatalf("%d network records, want 2: %s", len(recs), r.stdout)
	}
	ok, no := recs[0], recs[1]
	if ok.Outcome != "success" || ok.Network.Decision != "allow" || ok.Network.Method != "GET" || ok.Network.Path != "/hello" ||
		ok.Network.BytesIn == 0 || ok.Network.BytesOut == 0 || fmt.Sprint(ok.Network.Port) != a {
		t.Errorf("allowed record %+v", ok)
	}
	if no.Outcome != "refused" || no.Network.Decision != "deny" || fmt.Sprint(no.Network.Port) != b {
		t.Errorf("denied record %+v", no)
	}
}
