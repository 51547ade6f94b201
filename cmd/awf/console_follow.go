package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
)

// followEvery is how often the console looks for new tool calls, model turns and
// long-running steps.
const followEvery = 250 * time.Millisecond

// maxFollowLine bounds one line the follower keeps; a longer one is skipped.
const maxFollowLine = 1 << 20

// follower reads files of a run while the run goes on and hands on each new line: the
// activity file, so an agent step's tool calls show as the agent makes them, and the run's log,
// for the model turns of an HTTP agent. The calls are recorded by the step's proxy, which for a
// CLI agent is another process (awf mcp-serve): the file it appends to is the one channel every
// provider shares (docs/design.md). It also beats the console's heartbeat. stop ends it after a
// last read.
type follower struct {
	tails  []*tail
	onTick func(time.Time)
	done   chan struct{}
	gone   chan struct{}
	// now asks for a read at once; the reader answers on read.
	now, read chan struct{}
}

// tail is one followed file: where the reading stands, an incomplete last line, and what each
// whole line is handed to.
type tail struct {
	file    string
	off     int64
	partial []byte
	line    func([]byte)
}

// newTail follows file from its current end: what a resumed run's earlier steps wrote was
// shown by the run that wrote it.
func newTail(file string, line func([]byte)) *tail {
	t := &tail{file: file, line: line}
	if st, err := os.Stat(file); err == nil {
		t.off = st.Size()
	}
	return t
}

func startFollower(tails []*tail, onTick func(time.Time)) *follower {
	f := &follower{tails: tails, onTick: onTick, done: make(chan struct{}), gone: make(chan struct{}),
		now: make(chan struct{}), read: make(chan struct{})}
	go f.loop()
	return f
}

func (f *follower) loop() {
	defer close(f.gone)
	t := time.NewTicker(followEvery)
	defer t.Stop()
	readAll := func() {
		for _, tl := range f.tails {
			tl.read()
		}
	}
	for {
		select {
		case <-f.done:
			readAll()
			return
		case now := <-t.C:
			readAll()
			f.onTick(now)
		case <-f.now:
			readAll()
			f.read <- struct{}{}
		}
	}
}

// read hands on the complete lines written since the last read; an incomplete last line waits.
func (t *tail) read() {
	fh, err := os.Open(t.file)
	if err != nil {
		return // not yet written
	}
	defer fh.Close()
	if _, err := fh.Seek(t.off, io.SeekStart); err != nil {
		return
	}
	b, _ := io.ReadAll(io.LimitReader(fh, 8<<20))
	t.off += int64(len(b))
	buf := append(t.partial, b...)
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(buf[:i]); len(line) > 0 {
			t.line(line)
		}
		buf = buf[i+1:]
	}
	if len(buf) > maxFollowLine {
		buf = nil // a line this long is skipped, not held
	}
	t.partial = append([]byte(nil), buf...)
}

// drain hands on every line written so far before it returns: a step's calls show before the
// line saying it ended, however fast it was. It must not be called from a tail's handler.
func (f *follower) drain() {
	select {
	case f.now <- struct{}{}:
		<-f.read
	case <-f.gone:
	}
}

// stop reads what is left and ends the follower.
func (f *follower) stop() {
	close(f.done)
	<-f.gone
}

// callLines hands each activity record on to onCall.
func callLines(onCall func(activity.Record)) func([]byte) {
	return func(b []byte) {
		if r, err := activitylog.Decode(b); err == nil {
			onCall(r)
		}
	}
}

// modelTurn is one model request of an HTTP agent step, from its run.log line.
type modelTurn struct {
	Msg              string `json:"msg"`
	Step             string `json:"step"`
	Turn             int    `json:"turn"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	ToolCalls        int    `json:"tool_calls"`
}

// turnLines hands each model request of the run's log on to onTurn.
func turnLines(onTurn func(modelTurn)) func([]byte) {
	return func(b []byte) {
		if !bytes.Contains(b, []byte(`"msg":"model request"`)) {
			return
		}
		var m modelTurn
		if json.Unmarshal(b, &m) == nil && m.Msg == "model request" {
			onTurn(m)
		}
	}
}
