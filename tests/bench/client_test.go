package bench_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session is one initialized MCP session with a spawned server, seen through one client. Both
// clients drive the same servers, so a ratio can be read with the go-sdk client's own cost in it
// (what an agent CLI built on an SDK sees) and without it (the raw view, closer to the server).
type session interface {
	// call makes one tools/call and returns the text of the result.
	call(ctx context.Context, tool string, args json.RawMessage) (string, error)
	// listTools makes one tools/list.
	listTools(ctx context.Context) error
	pid() int
	close()
}

// clientView opens sessions of one kind.
type clientView struct {
	name string
	open func(ctx context.Context, cmd *exec.Cmd) (session, error)
}

var views = []clientView{{"go-sdk", openSDK}, {"raw", openRaw}}

type sdkSession struct {
	cs  *mcp.ClientSession
	cmd *exec.Cmd
}

func openSDK(ctx context.Context, cmd *exec.Cmd) (session, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, err
	}
	return &sdkSession{cs: cs, cmd: cmd}, nil
}

func (s *sdkSession) call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	var text string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		}
	}
	if res.IsError {
		return "", fmt.Errorf("%s: tool error: %s", tool, text)
	}
	return text, nil
}

func (s *sdkSession) listTools(ctx context.Context) error {
	_, err := s.cs.ListTools(ctx, nil)
	return err
}

func (s *sdkSession) pid() int { return s.cmd.Process.Pid }
func (s *sdkSession) close()   { _ = s.cs.Close() }

// rawSession speaks newline-delimited JSON-RPC with no SDK: one writer lock, one reader
// goroutine matching answers to callers by id.
type rawSession struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	wmu    sync.Mutex
	nextID atomic.Int64
	pmu    sync.Mutex
	wait   map[int64]chan rawAnswer
	done   chan struct{}
}

type rawAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func openRaw(ctx context.Context, cmd *exec.Cmd) (session, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &rawSession{cmd: cmd, stdin: stdin, wait: map[int64]chan rawAnswer{}, done: make(chan struct{})}
	go s.readLoop(stdout)
	if _, err := s.request(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-raw","version":"1"}}`)); err != nil {
		s.close()
		return nil, err
	}
	if err := s.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *rawSession) readLoop(r io.Reader) {
	defer close(s.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			var m struct {
				ID *int64 `json:"id"`
				rawAnswer
			}
			if json.Unmarshal(line, &m) == nil && m.ID != nil {
				s.pmu.Lock()
				ch := s.wait[*m.ID]
				delete(s.wait, *m.ID)
				s.pmu.Unlock()
				if ch != nil {
					ch <- m.rawAnswer
				}
			}
		}
		if err != nil {
			return
		}
	}
}

func (s *rawSession) send(line []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.stdin.Write(append(line, '\n'))
	return err
}

func (s *rawSession) request(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	id := s.nextID.Add(1)
	ch := make(chan rawAnswer, 1)
	s.pmu.Lock()
	s.wait[id] = ch
	s.pmu.Unlock()
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err := s.send(line); err != nil {
		return nil, err
	}
	select {
	case a := <-ch:
		if a.Error != nil {
			return nil, errors.New(a.Error.Message)
		}
		return a.Result, nil
	case <-s.done:
		return nil, fmt.Errorf("%s: the server closed its output", method)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *rawSession) call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	params, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	raw, err := s.request(ctx, "tools/call", params)
	if err != nil {
		return "", err
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return "", err
	}
	var text string
	for _, c := range res.Content {
		text += c.Text
	}
	if res.IsError {
		return "", fmt.Errorf("%s: tool error: %s", tool, text)
	}
	return text, nil
}

func (s *rawSession) listTools(ctx context.Context) error {
	_, err := s.request(ctx, "tools/list", json.RawMessage(`{}`))
	return err
}

func (s *rawSession) pid() int { return s.cmd.Process.Pid }

func (s *rawSession) close() {
	_ = s.stdin.Close()
	<-s.done
	_ = s.cmd.Wait()
}
