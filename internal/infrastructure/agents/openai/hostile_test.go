package openai

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/tests/testkit"
)

// endlessData serves data: lines and never a blank line, until the client goes away or a
// safety limit (256 MiB) is reached.
func endlessData(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	line := []byte("data: " + strings.Repeat("x", 1018) + "\n")
	for written := 0; written < 256<<20; written += len(line) {
		if _, err := w.Write(line); err != nil || r.Context().Err() != nil {
			return
		}
	}
}

// readsPerTurn asks for 256 Reads per turn for turns 1 to 5, then answers; it reads and drops
// each request body, so the server holds nothing.
type readsPerTurn struct {
	mu       sync.Mutex
	turns    int
	lastTool []string // the tool messages of the last request
	maxBody  int
}

func (h *readsPerTurn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	h.mu.Lock()
	h.turns++
	turn := h.turns
	h.mu.Unlock()
	cr := &countingReader{r: r.Body}
	if turn > 5 { // only the last request is read: the server must not be what fills memory
		_ = json.NewDecoder(cr).Decode(&body)
	} else {
		_, _ = io.Copy(io.Discard, cr)
	}
	h.mu.Lock()
	h.maxBody = max(h.maxBody, cr.n)
	h.lastTool = h.lastTool[:0]
	for _, m := range body.Messages {
		if m.Role == "tool" && strings.HasPrefix(m.Content, "ERROR") {
			h.lastTool = append(h.lastTool, m.Content)
		}
	}
	h.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	bw := bufio.NewWriter(w)
	if turn > 5 {
		fmt.Fprintf(bw, "data: %s\n\ndata: %s\n\n", contentChunk("done"), finishChunk("stop"))
	} else {
		for i := 0; i < 256; i++ {
			fmt.Fprintf(bw, "data: %s\n\n", toolChunk(i, fmt.Sprintf("c%d_%d", turn, i), "Read", `{"file_path":"big.txt"}`))
		}
		fmt.Fprintf(bw, "data: %s\n\n", finishChunk("tool_calls"))
	}
	_, _ = bw.WriteString("data: [DONE]\n\n")
	_ = bw.Flush()
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// bigFile answers every Read with a fresh 366 KB text, as a real Read of that file would.
type bigFile struct{}

func (bigFile) ListTools() []tool.Definition {
	return []tool.Definition{{Name: "Read", InputSchema: json.RawMessage(`{"type":"object"}`)}}
}

func (bigFile) CallTool(context.Context, string, json.RawMessage) tool.Result {
	return tool.Text(strings.Repeat("0123456789abcdef\n", 366_000/17))
}

func hostileRequest(base string, tools ports.ToolSession) ports.AgentRequest {
	return ports.AgentRequest{RunID: "run1", Step: "agent", Provider: Name, Prompt: "go", Tools: tools,
		Options: map[string]any{"base_url": base, "model": "m", "max_turns": 10}}
}

func TestEndlessDataLinesStopAtTheCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(endlessData))
	defer srv.Close()
	_, err := testProvider(nil).Run(context.Background(), hostileRequest(srv.URL+"/v1", nil))
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Code != fault.ExecutionAgentEventTooLarge || !strings.Contains(fe.Error(), "8 MiB") {
		t.Fatalf("err = %v", err)
	}
}

// A stream of tiny data: lines without blank lines costs linear time (the complete-JSON check
// stops once the pending event is large).
func TestManyTinyLinesAreLinear(t *testing.T) {
	r := io.MultiReader(strings.NewReader("data: {\"choices\":[\n"), strings.NewReader(strings.Repeat("data: 1,\n", 1<<20)))
	_, err := readSSE(bufio.NewReader(r), NewAssembler())
	var me *malformedError
	if !errors.As(err, &me) {
		t.Fatalf("err = %v", err)
	}
}

func TestConversationBudgetElidesResults(t *testing.T) {
	h := &readsPerTurn{}
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := testProvider(nil).Run(context.Background(), hostileRequest(srv.URL+"/v1", bigFile{}))
	if err != nil || res.Output != "done" {
		t.Fatalf("res %+v err %v", res, err)
	}
	if h.turns != 6 {
		t.Errorf("%d turns", h.turns)
	}
	if len(h.lastTool) == 0 || !strings.Contains(h.lastTool[0], "was left out") || !strings.Contains(h.lastTool[0], "offset and limit") {
		t.Fatalf("no elision note reached the model: %q", h.lastTool)
	}
	if h.maxBody > maxConversationBytes+2<<20 {
		t.Errorf("a request body was %d bytes, over the budget of %d", h.maxBody, maxConversationBytes)
	}
}

func TestKeptArgumentsAreBounded(t *testing.T) {
	b := newBudget()
	if got := b.keepArguments(`{"a":1}`); got != `{"a":1}` {
		t.Errorf("small arguments changed: %s", got)
	}
	big := `{"content":"` + strings.Repeat("x", maxKeptArguments) + `"}`
	got := b.keepArguments(big)
	if !json.Valid([]byte(got)) || !strings.Contains(got, strconv.Itoa(len(big))) {
		t.Errorf("elided arguments: %s", got)
	}
	b.used = b.limit
	if got := b.keepArguments(`{"a":1}`); got == `{"a":1}` {
		t.Error("arguments kept past the budget")
	}
	if got := b.keepResult("x"); !strings.HasPrefix(got, "ERROR: this tool result (1 bytes)") {
		t.Errorf("result past the budget: %s", got)
	}
}

// TestHostileEndpointPeakMemory runs each probe of docs/decisions/0011-values-are-data-secrets-are-masked.md in a fresh process and reads that
// process's peak resident set (VmHWM) from /proc/self/status: it must stay under 200 MB.
func TestHostileEndpointPeakMemory(t *testing.T) {
	if probe := os.Getenv("AWF_OPENAI_MEMPROBE"); probe != "" {
		runProbe(t, probe)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("VmHWM is read from /proc/self/status")
	}
	if testing.Short() {
		t.Skip("runs two subprocesses")
	}
	if raceDetector {
		testkit.Skip(t, "peak memory is measured without the race detector (make test measures it)")
	}
	for _, probe := range []string{"endless-data", "reads-per-turn"} {
		t.Run(probe, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHostileEndpointPeakMemory$", "-test.v")
			cmd.Env = append(os.Environ(), "AWF_OPENAI_MEMPROBE="+probe)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("probe failed: %v\n%s", err, out)
			}
			i := strings.Index(string(out), "VmHWM_KB=")
			if i < 0 {
				t.Fatalf("no VmHWM in output:\n%s", out)
			}
			kb, _ := strconv.Atoi(strings.Fields(string(out[i+len("VmHWM_KB="):]))[0])
			t.Logf("%s: peak RSS %d MB", probe, kb>>10)
			if kb > 200_000 {
				t.Errorf("%s: peak RSS %d KB, over 200 MB", probe, kb)
			}
		})
	}
}

func runProbe(t *testing.T, probe string) {
	switch probe {
	case "endless-data":
		TestEndlessDataLinesStopAtTheCap(t)
	case "reads-per-turn":
		TestConversationBudgetElidesResults(t)
	default:
		t.Fatalf("unknown probe %q", probe)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Printf("VmHWM_KB=%s\n", strings.Fields(line)[1])
		}
	}
}

// A server without blank lines whose events are large single lines still works: a one-line
// event is always checked for completeness.
func TestLargeUnframedEvents(t *testing.T) {
	big := strings.Repeat("y", 10<<10)
	stream := "data: " + contentChunk(big) + "\ndata: " + contentChunk(big) + "\ndata: " + finishChunk("stop") + "\n"
	turn, err := readSSE(bufio.NewReader(strings.NewReader(stream)), NewAssembler())
	if err != nil || turn.Content != big+big {
		t.Fatalf("content %d bytes, err %v", len(turn.Content), err)
	}
}
