// Package report_test opens the HTML report of the demo's run in headless Chromium (Debian
// package chromium) and checks what a person would see: the page loads with no console error
// and no network request, the timeline and the table hold the run's tool calls, the refused Bash
// call stands out, and the table's filter works.
package report_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// browser is Chromium's path; without it the test skips visibly, or fails when CI installed it
// (AWF_REQUIRE_BROWSER=1).
func browser(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("AWF_REQUIRE_BROWSER") == "1" {
		t.Fatal("AWF_REQUIRE_BROWSER=1 but no chromium on PATH")
	}
	testkit.Skip(t, "no chromium on PATH (apt-get install -y chromium): the report is not opened in a browser")
	return ""
}

// demoRun runs the quickstart as `make demo` does, with --report, in a project of its own, and
// returns the report's path. The step's sandbox is off, as on a kernel without Landlock, so the
// intent rule refuses the destructive Bash call (with the sandbox on, it runs confined instead).
func demoRun(t *testing.T) string {
	bin := t.TempDir()
	for out, pkg := range map[string]string{"/awf": "./cmd/awf", "/demo-model": "./examples/demo-model", "/plugins/": "./examples/plugins/..."} {
		must(t, testkit.GoBuild(bin+out, pkg))
	}
	proj := t.TempDir()
	wf, err := os.ReadFile(filepath.Join(testkit.RepoRoot(), "examples", "workflows", "quickstart.yaml"))
	must(t, err)
	off := strings.Replace(string(wf), "      intercept_builtins: true\n", "      intercept_builtins: true\n      sandbox: {mode: off}\n", 1)
	if off == string(wf) {
		t.Fatal("the quickstart no longer has the intercept_builtins line this test edits")
	}
	must(t, os.MkdirAll(filepath.Join(proj, ".awf", "workflows"), 0o755))
	must(t, os.WriteFile(filepath.Join(proj, ".awf", "workflows", "quickstart.yaml"), []byte(off), 0o644))
	must(t, os.WriteFile(filepath.Join(proj, "README.md"), []byte("# demo project for awf\n\nawf routes every tool call.\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(proj, ".awf", "plugins.yaml"), []byte(fmt.Sprintf(
		"plugins:\n  notes:\n    command: %s/plugins/notes\n    config:\n      dir: .awf/notes\n", bin)), 0o644))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	model := exec.CommandContext(ctx, bin+"/demo-model", "--addr", "127.0.0.1:0")
	stdout, _ := model.StdoutPipe()
	must(t, model.Start())
	defer func() { _ = model.Process.Kill(); _ = model.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("demo model first line %q: %v", line, err)
	}
	run := exec.CommandContext(ctx, bin+"/awf", "run", "quickstart", "--report", "--format", "json")
	run.Dir = proj
	home, tmp := t.TempDir(), t.TempDir()
	run.Env = append(os.Environ(), "OPENAI_BASE_URL="+url, "OPENAI_MODEL=awf-demo", "HOME="+home, "TMPDIR="+tmp)
	var out, errb bytes.Buffer
	run.Stdout, run.Stderr = &out, &errb
	if err := run.Run(); err != nil {
		t.Fatalf("awf run: %v\n%s\n%s", err, out.String(), errb.String())
	}
	var summary struct {
		RunID string `json:"run_id"`
	}
	must(t, json.Unmarshal(out.Bytes(), &summary))
	want := filepath.Join(proj, ".awf", "runs", summary.RunID, "report.html")
	if !strings.Contains(errb.String(), "Report: "+want) {
		t.Fatalf("awf run --report did not say where the report is; stderr:\n%s", errb.String())
	}
	return want
}

// pageFacts is what the test reads from the loaded page.
type pageFacts struct {
	Rows, Marks, RefusedMarks, RefusedRows int
	RefusedTool, RefusedColor, Status      string
	TextList                               string
	ShownAfterFilter                       int
}

const factsJS = `(() => {
  const rows = [...document.querySelectorAll('#calls tbody tr[id^="call-"]')];
  const refusedRows = rows.filter(r => r.classList.contains('refused'));
  const marks = [...document.querySelectorAll('#timeline .mark')];
  const refused = marks.filter(m => m.classList.contains('refused'));
  const sel = document.getElementById('filter-outcome');
  let shown = -1;
  if (sel) {
    sel.value = 'refused';
    sel.dispatchEvent(new Event('change'));
    shown = rows.filter(r => !r.hidden).length;
  }
  return {
    Rows: rows.length, Marks: marks.length, RefusedMarks: refused.length, RefusedRows: refusedRows.length,
    RefusedTool: refusedRows.length ? refusedRows[0].dataset.tool : '',
    RefusedColor: refused.length ? getComputedStyle(refused[0]).backgroundColor : '',
    Status: document.getElementById('run-status').textContent,
    TextList: document.querySelector('.sr-text').textContent,
    ShownAfterFilter: shown,
  };
})()`

func TestDemoReportInChromium(t *testing.T) {
	exe := browser(t)
	report := demoRun(t)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 1400), chromedp.UserDataDir(t.TempDir()))
	ctx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel = chromedp.NewContext(ctx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	var (
		mu       sync.Mutex
		problems []string
		requests []string
	)
	must(t, chromedp.Listen(ctx, func(ev any) {
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
	}))
	must(t, chromedp.Do(ctx, chromedp.Navigate("file://"+report), chromedp.WaitReady("#calls")))
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(80)) // a JPEG
	must(t, err)
	facts, err := chromedp.Run(ctx, chromedp.Evaluate[pageFacts](factsJS))
	must(t, err)
	if dst := os.Getenv("AWF_REPORT_SCREENSHOT"); dst != "" { // how docs/report.jpg is made
		must(t, os.WriteFile(dst, shot, 0o644))
	}
	if len(shot) < 10_000 {
		t.Errorf("the screenshot is %d bytes: the page did not render", len(shot))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(problems, "\n"))
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, "file://") {
			t.Errorf("the report made a network request: %s", u)
		}
	}
	if facts.Rows != 5 || facts.Marks != 5 {
		t.Errorf("table rows %d, timeline marks %d; the demo makes 5 tool calls", facts.Rows, facts.Marks)
	}
	if facts.RefusedRows != 1 || facts.RefusedMarks != 1 || facts.RefusedTool != "Bash" {
		t.Errorf("refused: %d rows (tool %q), %d marks; want the one Bash call", facts.RefusedRows, facts.RefusedTool, facts.RefusedMarks)
	}
	if facts.RefusedColor != "rgb(198, 40, 40)" {
		t.Errorf("the refused mark is drawn %q, not in the refusal colour", facts.RefusedColor)
	}
	if !strings.Contains(facts.TextList, "Bash") || !strings.Contains(facts.TextList, "refused") {
		t.Errorf("the timeline's text alternative lacks the refused Bash call: %q", facts.TextList)
	}
	if facts.ShownAfterFilter != 1 {
		t.Errorf("filtering on outcome refused shows %d rows, want 1", facts.ShownAfterFilter)
	}
	if facts.Status != "success" {
		t.Errorf("status %q", facts.Status)
	}
}
