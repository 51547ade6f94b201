package serve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Headless Chromium on the live page of a run whose destructive call is held: the call shows
// with Approve and Deny buttons; clicking Approve lets it run (the marker appears) and the
// record says approve by page; no console error.
func TestApprovePageClick(t *testing.T) {
	exe := browserPath(t)
	t.Setenv("OPENAI_BASE_URL", toucher(t))
	t.Setenv("OPENAI_MODEL", "toucher")
	root := project(t, map[string]string{"approve": fmt.Sprintf(approveFlow, "2m")})
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
		mu       sync.Mutex
		problems []string
	)
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				problems = append(problems, fmt.Sprintf("console.error: %v", e.Args))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		}
	}); err != nil {
		t.Fatal(err)
	}
	code, body := s.do(t, "POST", "/api/workflows/local/approve/run", `{"inputs":{}}`)
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
	s.pending(t, id) // held before the page opens
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/runs/"+id), chromedp.WaitVisible("#approvals li button.approve")); err != nil {
		t.Fatal(err)
	}
	label, err := chromedp.Run(ctx, chromedp.Text("#approvals li"))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click("#approvals li button.approve")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(label, "Bash") || !strings.Contains(label, "touch marker") {
		t.Errorf("the held call shows as %q", label)
	}
	s.waitEnded(t, id)
	if _, err := os.Stat(filepath.Join(root, "marker")); err != nil {
		t.Error("the approved call did not run")
	}
	if got := approval(bashRecord(t, root, id)); got != "approve/page" {
		t.Errorf("record approval %s, want approve/page", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(problems, "\n"))
	}
}
