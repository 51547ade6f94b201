// Package report reads a run's records for `awf report` and draws the report as one
// self-contained HTML file: styles and the filtering script inline, no network, every value
// escaped by html/template.
package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	apprep "github.com/awf-dev/awf/internal/application/report"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

// LogFile is the name of a run's log inside its directory.
const LogFile = "run.log"

// maxLine bounds one line of a run's activity or log file: a longer line is skipped, not loaded.
const maxLine = 16 << 20

// Read gathers the records of run id under root (the project holding .awf/): its state, its
// tool calls, the log lines the report uses and the workflow as the run loaded it. A missing
// activity file or log is an empty one (a run that made no calls); a missing or corrupt state is
// the store's error.
func Read(root, id string) (apprep.Input, error) {
	store := runstore.Store{Root: root, ActivityFile: activitylog.FileName}
	rec, err := store.Load(id)
	if err != nil {
		return apprep.Input{}, err
	}
	in := apprep.Input{Record: rec, Alive: store.Alive}
	dir := store.Dir(rec.ID)
	if err := eachLine(filepath.Join(dir, activitylog.FileName), func(b []byte) {
		if r, err := activitylog.Decode(b); err == nil {
			in.Calls = append(in.Calls, r)
		}
	}); err != nil {
		return apprep.Input{}, err
	}
	if err := eachLine(filepath.Join(dir, LogFile), func(b []byte) {
		if l, ok := logLine(b); ok {
			in.Log = append(in.Log, l)
		}
	}); err != nil {
		return apprep.Input{}, err
	}
	if rec.Source != "" {
		if wf, _ := yamlrepo.Parse(rec.File, []byte(rec.Source)); wf != nil && len(wf.States) > 0 {
			in.Workflow = wf
		}
	}
	return in, nil
}

// eachLine calls fn with every non-empty line of file shorter than maxLine.
func eachLine(file string, fn func([]byte)) error {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		} else {
			line = line[:0:0] // too long: dropped up to its end
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err == nil {
				continue
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil || err == io.EOF:
			if b := bytes.TrimSpace(line); len(b) > 0 {
				fn(b)
			}
			line = line[:0]
			if err == io.EOF {
				return nil
			}
		default:
			return err
		}
	}
}

// logFields are the run.log fields a report reads (zap's JSON encoder writes them).
type logFields struct {
	TS        time.Time `json:"ts"`
	Msg       string    `json:"msg"`
	Step      string    `json:"step"`
	Loop      string    `json:"loop"`
	LoopIndex int       `json:"loop_index"`
	Parallel  string    `json:"parallel"`
	Call      string    `json:"call"`
	// Duration is a step's, in seconds; DurationMS a model request's.
	Duration         float64 `json:"duration"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	CostUSD          float64 `json:"cost_usd"`
}

// logLine decodes the fields of one run.log line; lines of other messages are skipped.
func logLine(b []byte) (apprep.LogLine, bool) {
	if !bytes.Contains(b, []byte(`"msg":"step `)) && !bytes.Contains(b, []byte(`"msg":"model request"`)) {
		return apprep.LogLine{}, false
	}
	var f logFields
	if err := json.Unmarshal(b, &f); err != nil {
		return apprep.LogLine{}, false
	}
	return apprep.LogLine{
		Time: f.TS, Msg: f.Msg, Step: f.Step, Loop: f.Loop, LoopIndex: f.LoopIndex, Parallel: f.Parallel, Call: f.Call,
		Duration:     time.Duration(f.Duration * float64(time.Second)),
		PromptTokens: f.PromptTokens, CompletionTokens: f.CompletionTokens, CostUSD: f.CostUSD,
	}, true
}
