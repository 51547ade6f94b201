package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The transcripts below are sequences of raw request lines and every line the server wrote in
// answer, byte for byte. testdata/*.golden were written by the server before tools/call had a
// path of its own beside the SDK's, so they pin what the SDK answers: the direct path must answer
// the same bytes, and the suite runs each script with it off and on (runBothWays).

// transcriptTools are tools whose results cover every shape a result can take on the wire.
func transcriptTools() []func() (Tool, Handler) {
	obj := json.RawMessage(`{"type":"object"}`)
	text := func(name string, h Handler) func() (Tool, Handler) {
		return func() (Tool, Handler) { return Tool{Name: name, InputSchema: obj}, h }
	}
	return []func() (Tool, Handler){
		text("echo", func(_ context.Context, args json.RawMessage) (*Result, error) {
			return &Result{Content: []Content{{Type: "text", Text: "args=" + string(args)}}}, nil
		}),
		text("odd", func(context.Context, json.RawMessage) (*Result, error) {
			return &Result{Content: []Content{{Text: "<a href=\"x\">&amp;</a>\n\t\r\b\f\x01\x1f\x7f é \u2028\u2029 \xff\xfe \U0001F600 \\ /"}}}, nil
		}),
		text("multi", func(context.Context, json.RawMessage) (*Result, error) {
			return &Result{Content: []Content{{Type: "text", Text: "one"}, {Text: ""}, {Type: "text", Text: "three"}}}, nil
		}),
		text("none", func(context.Context, json.RawMessage) (*Result, error) { return nil, nil }),
		text("emptycontent", func(context.Context, json.RawMessage) (*Result, error) { return &Result{}, nil }),
		text("iserr", func(context.Context, json.RawMessage) (*Result, error) {
			return &Result{IsError: true, Content: []Content{{Type: "text", Text: "it failed"}}}, nil
		}),
		text("rich", func(context.Context, json.RawMessage) (*Result, error) {
			return &Result{Content: []Content{{Type: "text", Text: "see <image>"},
				{Raw: json.RawMessage(`{"type":"image","data":"aGVsbG8=","mimeType":"image/png"}`)}},
				StructuredContent: json.RawMessage(`{"b": 2, "a": [1, "<x>"]}`), Meta: json.RawMessage(`{"z":1,"a":"&"}`)}, nil
		}),
		text("richerr", func(context.Context, json.RawMessage) (*Result, error) {
			return &Result{IsError: true, Content: []Content{{Raw: json.RawMessage(`{"type":"text","text":"raw text","annotations":{"priority":1}}`)}}}, nil
		}),
		text("fail", func(context.Context, json.RawMessage) (*Result, error) { return nil, errors.New("plain failure <&>") }),
		text("rpcfail", func(context.Context, json.RawMessage) (*Result, error) {
			return nil, &jsonrpc.Error{Code: -32001, Message: "custom failure", Data: json.RawMessage(`{"why":"x"}`)}
		}),
		text("panic", func(context.Context, json.RawMessage) (*Result, error) { panic("deliberate") }),
		text("badtype", func(context.Context, json.RawMessage) (*Result, error) {
			return &Result{Content: []Content{{Type: "image", Text: "x"}}}, nil
		}),
		text("progress", func(ctx context.Context, _ json.RawMessage) (*Result, error) {
			_ = ReportProgress(ctx, 1, 2, "half")
			return &Result{Content: []Content{{Text: fmt.Sprintf("wants progress: %v", WantsProgress(ctx))}}}, nil
		}),
	}
}

const (
	legacyInit  = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`
	modernMeta  = `"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	discover    = `{"jsonrpc":"2.0","id":"disc","method":"server/discover","params":{` + modernMeta + `}}`
)

// callLines are the tools/call lines every script sends once initialized; meta is inserted
// into each params object ("" for none).
func callLines(meta string) []string {
	p := func(rest string) string {
		if meta == "" {
			return "{" + rest + "}"
		}
		if rest == "" {
			return "{" + meta + "}"
		}
		return "{" + meta + "," + rest + "}"
	}
	var out []string
	add := func(id, params string) {
		out = append(out, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":`+params+`}`)
	}
	add(`1`, p(`"name":"echo","arguments":{"text":"hi"}`))
	add(`2`, p(`"name":"echo"`))
	add(`3`, p(`"name":"echo","arguments":null`))
	add(`4`, p(` "name" : "echo" , "arguments" : { "a" : [ 1 , 2 ] , "b":"\u003c\n" } `))
	add(`5`, p(`"arguments":[1,"x"],"name":"echo"`))
	add(`"s-6"`, p(`"name":"odd"`))
	add(`7`, p(`"name":"multi"`))
	add(`8`, p(`"name":"none"`))
	add(`9`, p(`"name":"emptycontent"`))
	add(`10`, p(`"name":"iserr"`))
	add(`11`, p(`"name":"rich"`))
	add(`12`, p(`"name":"richerr"`))
	add(`13`, p(`"name":"fail"`))
	add(`14`, p(`"name":"rpcfail"`))
	add(`15`, p(`"name":"panic"`))
	add(`16`, p(`"name":"badtype"`))
	add(`17`, p(`"name":"progress"`))
	add(`18`, p(`"name":"nosuchtool"`))
	add(`19`, p(`"name":"ech\u006f","arguments":{}`))
	add(`20`, p(`"Name":"echo"`))
	add(`21`, p(`"name":"echo","name":"odd"`))
	add(`22`, p(`"name":"echo","inputResponses":{},"requestState":"x"`))
	add(`23`, p(`"name":"echo","arguments":{"x":1},"extra":true`))
	add(`24`, p(`"name":7`))
	add(`25.0`, p(`"name":"echo"`))
	add(`1e300`, p(`"name":"echo"`))
	add(`-3`, p(`"name":"echo","arguments":"str"`))
	add(`26`, `{"name":"echo"}`) // no _meta even in a modern session
	add(`27`, `{"_meta":{"progressToken":"tok-1"},"name":"progress"}`)
	add(`28`, `{"_meta":{"progressToken":9},"name":"echo"}`)
	add(`29`, `{"_meta":{"custom/key":"v","other":[1]},"name":"echo"}`)
	add(`30`, `{"_meta":{},"name":"echo"}`)
	add(`31`, `{"_meta":null,"name":"echo"}`)
	add(`32`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"},"name":"echo"}`)
	add(`33`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo"}`)
	add(`34`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":"bad"},"name":"echo"}`)
	add(`35`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo"}`)
	add(`36`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":5},"name":"echo"}`)
	add(`37`, `{"_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}}},"name":"echo"}`)
	add(`38`, p(`"name":"echo","arguments":{"text":"again"}`))
	add(`39`, p(`"name":"echo","_meta":{"progressToken":1}`))
	return out
}

// scripts are the transcripts: a name and the lines sent.
func scripts() map[string][]string {
	pre := []string{
		`{"jsonrpc":"2.0","id":100,"method":"tools/call","params":{"name":"echo"}}`, // before initialize
		`{"jsonrpc":"2.0","id":101,"method":"tools/call","params":{` + modernMeta + `,"name":"echo"}}`,
	}
	// list is a tools/list with the script's own _meta: the SDK listed the tools it held,
	// the server now lists its registry (same bytes, sorted, cache hints, resultType).
	list := func(meta string) string {
		if meta == "" {
			return `{"jsonrpc":"2.0","id":300,"method":"tools/list"}`
		}
		return `{"jsonrpc":"2.0","id":300,"method":"tools/list","params":{` + meta + `}}`
	}
	otherMeta := strings.Replace(modernMeta, `"name":"b"`, `"name":"c"`, 1)
	return map[string][]string{
		"legacy": append(append([]string{pre[0], legacyInit, initialized}, callLines("")...),
			`{"jsonrpc":"2.0","id":200,"method":"tools/list","params":{}}`, `{"jsonrpc":"2.0","id":201,"method":"ping"}`),
		"legacy-2025-11-25":  append(append([]string{strings.Replace(legacyInit, "2025-06-18", "2025-11-25", 1), initialized}, callLines("")...), list("")),
		"modern":             append(append([]string{discover}, callLines(modernMeta)...), list(modernMeta)),
		"modern-no-discover": append(append([]string{pre[1]}, callLines(modernMeta)...), list(modernMeta)),
		"modern-other-meta":  append(append([]string{discover}, callLines(otherMeta)...), list(otherMeta)),
		"legacy-init-2026":   append(append([]string{strings.Replace(legacyInit, "2025-06-18", "2026-07-28", 1), initialized}, callLines("")...), list("")),
	}
}

// runScript sends each line and, for a request, waits for its answer; it returns every line
// the server wrote, in order.
func runScript(t *testing.T, srv *Server, lines []string) string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, inR, outW); _ = outW.Close() }()
	out := bufio.NewReaderSize(outR, 1<<20)
	var got strings.Builder
	for _, line := range lines {
		fmt.Fprintf(&got, "> %s\n", line)
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal([]byte(line), &probe)
		if probe.ID == nil {
			continue
		}
		for {
			answer, err := readLineWithin(out, 5*time.Second)
			if err != nil {
				t.Fatalf("after %s: %v\n%s", line, err, got.String())
			}
			fmt.Fprintf(&got, "< %s", answer)
			var a struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal([]byte(answer), &a) == nil && a.ID != nil {
				break
			}
		}
	}
	_ = inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return got.String()
}

func readLineWithin(r *bufio.Reader, d time.Duration) (string, error) {
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := r.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case x := <-ch:
		return x.s, x.err
	case <-time.After(d):
		return "", errors.New("no answer within " + d.String())
	}
}

func transcriptServer(t *testing.T, fallback bool) *Server {
	srv := newServer(t, Options{Name: "pin<&>", Version: "1.2.3"}, transcriptTools()...)
	if fallback {
		srv.SetFallback(func(_ context.Context, name string, args json.RawMessage) (*Result, error) {
			return &Result{IsError: true, Content: []Content{{Text: "no tool " + name + " " + string(args)}}}, nil
		})
	}
	return srv
}

// directCalls is how many calls of each script the direct path runs.
var directCalls = map[string]int64{
	"legacy": 25, "legacy-2025-11-25": 25, "legacy-init-2026": 25,
	"modern": 25, "modern-no-discover": 25, "modern-other-meta": 24, // the first call with a new _meta goes to the SDK
}

// TestTranscripts runs every script, with and without a fallback, against its golden
// transcript; the suite runs it on the SDK's own path and again with every accelerator on.
func TestTranscripts(t *testing.T) {
	for name, lines := range scripts() {
		for _, variant := range []string{"", "-fallback"} {
			golden := name + variant
			t.Run(name+variant, func(t *testing.T) {
				srv := transcriptServer(t, variant == "-fallback")
				got := runScript(t, srv, lines)
				if want := directWant(directCalls[name]); srv.directCalls() != want {
					t.Errorf("%d calls took the direct path, want %d", srv.directCalls(), want)
				}
				path := filepath.Join("testdata", "transcript-"+golden+".golden")
				if os.Getenv("AWF_WRITE_GOLDEN") == "1" {
					if err := os.MkdirAll("testdata", 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if got != string(want) {
					gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
					for i := range min(len(gl), len(wl)) {
						if gl[i] != wl[i] {
							t.Fatalf("line %d differs:\ngot  %s\nwant %s", i+1, gl[i], wl[i])
						}
					}
					t.Fatalf("%d lines, want %d", len(gl), len(wl))
				}
			})
		}
	}
}
