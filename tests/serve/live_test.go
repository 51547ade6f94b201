package serve_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/awf-dev/awf/tests/testkit"
)

// agentFlow is one agent step against the scripted demo model, its sandbox off so that the
// destructive Bash call it asks for is refused by the intent rule.
const agentFlow = `name: agent
states:
  initial: explore
  explore:
    type: agent
    provider: openai_compatible
    prompt: Look around, try to clean up with Bash, then summarise.
    options:
      max_turns: 10
    mcp_proxy:
      enable: true
      intercept_builtins: true
      sandbox: {mode: off}
      intent:
        allow: [read, write]
    on_success: done
  done:
    type: terminal
    status: success
`

// slowModel starts the demo model behind a proxy that holds each request for delay, so the
// agent step lasts long enough to be watched.
func slowModel(t *testing.T, delay time.Duration) string {
	bin := filepath.Join(t.TempDir(), "demo-model")
	if err := testkit.GoBuild(bin, "./examples/demo-model"); err != nil {
		t.Fatal(err)
	}
	model := exec.Command(bin, "--addr", "127.0.0.1:0", "--quiet")
	out, _ := model.StdoutPipe()
	if err := model.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = model.Process.Kill(); _ = model.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		t.Fatalf("demo model said %q", line)
	}
	u, _ := url.Parse(strings.TrimSuffix(base, "/v1"))
	proxy := httputil.NewSingleHostReverseProxy(u)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	return slow.URL + "/v1"
}

// liveFacts is what the test reads from the live page.
type liveFacts struct {
	Rows, Refused, Marks int
	Status, Ended        string
	Tools                string
}

const liveJS = `(() => {
  const rows = [...document.querySelectorAll('#calls-body tr')];
  return {
    Rows: rows.length,
    Refused: rows.filter(r => r.classList.contains('refused')).length,
    Marks: document.querySelectorAll('#timeline .mark').length,
    Status: document.getElementById('status').textContent,
    Ended: document.getElementById('live').dataset.ended || '',
    Tools: rows.map(r => r.children[2].textContent).join(','),
  };
})()`

// Headless Chromium opens the live page of a running agent step: the tool calls appear while
// the step runs, the refused Bash call is marked, the page ends with the run's status and as
// many calls as the activity file; no console error, no request outside the server.
func TestLivePageInChromium(t *testing.T) {
	exe := browserPath(t)
	root := project(t, map[string]string{"agent": agentFlow})
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("# awf live page test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	modelURL := slowModel(t, 1500*time.Millisecond)
	t.Setenv("OPENAI_BASE_URL", modelURL)
	t.Setenv("OPENAI_MODEL", "awf-demo")
	s := start(t, root)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()))
	ctx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel = chromedp.NewContext(ctx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	var (
		mu                 sync.Mutex
		problems, requests []string
	)
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, fmt.Sprintf("console.%s: %v", e.Type, e.Args))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// The browser is up (on the runs page) before the run starts, so its start-up does not eat
	// the run's time.
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/"), chromedp.WaitReady("#runs")); err != nil {
		t.Fatal(err)
	}
	code, body := s.do(t, "POST", "/api/workflows/local/agent/run", `{"inputs":{}}`)
	if code != 202 {
		t.Fatalf("run: %d %s", code, body)
	}
	var acc struct {
		Body struct {
			ExecutionID string `json:"execution_id"`
		}
	}
	decode(t, body, &acc)
	id := acc.Body.ExecutionID
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/runs/"+id), chromedp.WaitReady("#calls")); err != nil {
		t.Fatal(err)
	}
	var seenWhileRunning bool
	var f liveFacts
	deadline := time.Now().Add(80 * time.Second)
	for time.Now().Before(deadline) {
		if f, err = chromedp.Run(ctx, chromedp.Evaluate[liveFacts](liveJS)); err != nil {
			t.Fatal(err)
		}
		if f.Rows > 0 && f.Ended == "" && s.status(t, id) == "running" {
			seenWhileRunning = true
		}
		if f.Ended == "true" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !seenWhileRunning {
		t.Errorf("no tool call showed while the run was running (final: %+v)", f)
	}
	calls := len(testkit.JSONLines(t, filepath.Join(root, ".awf", "runs", id, "activity.jsonl")))
	if f.Ended != "true" || f.Status != "completed" || f.Rows != calls || f.Marks != calls || calls < 3 {
		t.Errorf("final page %+v; the activity file has %d calls; the run: %v", f, calls, s.execution(t, id))
	}
	if f.Refused != 1 || !strings.Contains(f.Tools, "Bash") {
		t.Errorf("the refused Bash call is not marked: %+v", f)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(problems, "\n"))
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, s.base+"/") {
			t.Errorf("the page made a request outside the server: %s", u)
		}
	}
}

// browserPath is Chromium's path; without it the test skips visibly, or fails when CI installed
// it (AWF_REQUIRE_BROWSER=1).
func browserPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("AWF_REQUIRE_BROWSER") == "1" {
		t.Fatal("AWF_REQUIRE_BROWSER=1 but no chromium on PATH")
	}
	testkit.Skip(t, "no chromium on PATH (apt-get install -y chromium): the live page is not opened in a browser")
	return ""
}
