package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
)

// rawClient drives an in-process Serve with pre-built request lines and reads the answers with
// one bufio.Reader, matching them to callers by id without decoding them, so what the benchmark
// allocates and spends is the server's own (docs/decisions/0015-performance-at-the-floor.md: the per-call cost of the proxy).
type rawClient struct {
	wmu  sync.Mutex
	w    io.Writer
	mu   sync.Mutex
	wait map[int64]chan int // id → the answer's length
}

func (c *rawClient) readLoop(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return
		}
		// Answers start {"jsonrpc":"2.0","id":N,
		const head = `{"jsonrpc":"2.0","id":`
		if !bytes.HasPrefix(line, []byte(head)) {
			continue
		}
		rest := line[len(head):]
		end := bytes.IndexByte(rest, ',')
		id, err := strconv.ParseInt(string(rest[:end]), 10, 64)
		if err != nil {
			continue
		}
		c.mu.Lock()
		ch := c.wait[id]
		delete(c.wait, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- len(line)
		}
	}
}

// do sends line (ending in a newline) as request id and waits for its answer's length.
func (c *rawClient) do(id int64, line []byte, ch chan int) int {
	c.mu.Lock()
	c.wait[id] = ch
	c.mu.Unlock()
	c.wmu.Lock()
	_, _ = c.w.Write(line)
	c.wmu.Unlock()
	return <-ch
}

// modernMeta is the per-request _meta the go-sdk client (v1.8, protocol 2026-07-28) puts in
// every request, copied from its wire output.
const modernMeta = `"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`

// BenchmarkServeReadRaw is one Read of a 4 KiB file through the whole proxy as a step runs it
// (activity file, log file, a redactor over the environment, the serve command's GC settings),
// at 1 and 8 calls in flight, for a client speaking the 2026-07-28 protocol (per-request _meta,
// as the go-sdk client does) and one that initialized with 2025-06-18. The client is raw, so
// allocs/op and B/op are the server's; cpu-µs/op is the process's CPU per call (server and this
// thin client).
//
// The floor sub-benchmarks run the same client against a bare go-sdk server whose tool returns
// the same 4,544 bytes without touching the disk (tests/bench's floor, in-process), so each pair
// of lines is a side-by-side ratio.
func BenchmarkServeReadRaw(b *testing.B) {
	for _, proto := range []string{"2026", "2025"} {
		for _, inFlight := range []int{1, 8} {
			for _, server := range []string{"awf", "floor"} {
				b.Run(server+"/"+proto+"/c"+strconv.Itoa(inFlight), func(b *testing.B) { benchServeRaw(b, server == "floor", proto == "2026", inFlight) })
			}
		}
	}
}

// floorBlob is what the floor returns: the text awf's Read returns for the 4 KiB file.
var floorBlob = func() string {
	var sb strings.Builder
	for i := 1; i <= 64; i++ {
		sb.WriteString(fmt.Sprintf("%6d\t%s\n", i, strings.Repeat("y", 63)))
	}
	return sb.String()
}()

func serveFloor(ctx context.Context, r io.Reader, w io.WriteCloser) {
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "Read", InputSchema: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				FilePath string `json:"file_path"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: floorBlob}}}, nil
		})
	_ = s.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(r), Writer: w})
}

func benchServeRaw(b *testing.B, floor, modern bool, inFlight int) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	dir := b.TempDir()
	file := filepath.Join(dir, "f.txt")
	_ = os.WriteFile(file, []byte(strings.Repeat(strings.Repeat("y", 63)+"\n", 64)), 0o644)
	if floor {
		go func() { serveFloor(ctx, inR, outW); close(served) }()
	} else {
		// What awf-serve's runtime tuning sets (servetune, on by default).
		defer debug.SetGCPercent(debug.SetGCPercent(300))
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(20 << 20))
		red := redact.New(os.Environ())
		logger, closeLog, err := logging.New(logging.Options{Console: io.Discard, File: filepath.Join(dir, "awf.log"), Redactor: red})
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = closeLog() }()
		spec := toolset.Spec{Root: dir, Builtins: true, Intent: toolset.DefaultIntent(), ActivityFile: filepath.Join(dir, "activity.jsonl"),
			LogFile: filepath.Join(dir, "awf.log"), RunID: "bench", Step: "agent"}
		go func() { _ = Serve(ctx, spec, Deps{Logger: logger, Redactor: red}, inR, outW); close(served) }()
	}
	defer func() { cancel(); _ = inW.Close(); _ = outR.Close(); <-served }()
	c := &rawClient{w: inW, wait: map[int64]chan int{}}
	go c.readLoop(outR)

	meta := ""
	ch := make(chan int, 1)
	if modern {
		meta = modernMeta
		c.do(1, []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+modernMeta+`}}`+"\n"), ch)
	} else {
		c.do(1, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`+"\n"), ch)
		_, _ = inW.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}` + "\n"))
	}
	params := `"name":"Read","arguments":{"file_path":` + strconv.Quote(file) + `}}}` + "\n"
	if meta != "" {
		params = meta + "," + params
	}
	request := func(buf []byte, id int64) []byte {
		buf = append(buf[:0], `{"jsonrpc":"2.0","id":`...)
		buf = strconv.AppendInt(buf, id, 10)
		buf = append(buf, `,"method":"tools/call","params":{`...)
		return append(buf, params...)
	}
	// Warm up, and check the answer is a whole Read.
	if n := c.do(2, request(nil, 2), ch); n < 4096 {
		b.Fatalf("answer of %d bytes", n)
	}
	for i := int64(3); i < 50; i++ {
		c.do(i, request(nil, i), ch)
	}

	var ru0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for slot := range inFlight {
		wg.Go(func() {
			ch := make(chan int, 1)
			var buf []byte
			for i := slot; i < b.N; i += inFlight {
				id := int64(1000 + i)
				buf = request(buf, id)
				if n := c.do(id, buf, ch); n < 4096 {
					b.Errorf("answer of %d bytes", n)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	var ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / time.Duration(b.N)
	b.ReportMetric(float64(cpu)/float64(time.Microsecond), "cpu-µs/op")
}
