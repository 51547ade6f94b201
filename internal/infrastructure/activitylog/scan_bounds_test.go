package activitylog

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/activity"
)

func TestListOfACleanFileLogsNothing(t *testing.T) {
	path := writeLines(t, rec("a1", "r", "Read", activity.OutcomeSuccess, ""))
	core, logs := observer.New(zapcore.DebugLevel)
	if recs, err := (FileStore{Path: path, Logger: zap.New(core)}).List(context.Background(), activity.Filter{}); err != nil || len(recs) != 1 {
		t.Fatalf("List = %d, %v", len(recs), err)
	}
	if n := logs.Len(); n != 0 {
		t.Fatalf("a file without malformed lines logged %d lines: %+v", n, logs.All())
	}
}

func TestScanReportKeepsFiveProblemsAndCountsEveryLine(t *testing.T) {
	var lines []string
	for range 7 {
		lines = append(lines, "{bad\n")
	}
	lines = append(lines, `{"id":"huge","x":"`+strings.Repeat("x", MaxLine)+"\"}\n", rec("z9", "r", "Read", activity.OutcomeSuccess, ""))
	_, rep, err := FileStore{Path: writeLines(t, lines...)}.Scan(context.Background(), activity.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Skipped != 8 || len(rep.Problems) != maxProblems || rep.Lines != 9 {
		t.Fatalf("report %+v: want 8 skipped (7 malformed, 1 too long) of 9 lines, %d problems kept", rep, maxProblems)
	}
}

func TestScanKeepsALineOfExactlyMaxLine(t *testing.T) {
	head, tail := `{"id":"edge","tool":"Read","outcome":"success","arguments":{"content":"`, `"}}`
	line := head + strings.Repeat("y", MaxLine-len(head)-len(tail)) + tail
	recs, rep, err := FileStore{Path: writeLines(t, line+"\n")}.Scan(context.Background(), activity.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].ID != "edge" || rep.Skipped != 0 {
		t.Fatalf("a line of exactly %d bytes: %d records, report %+v", MaxLine, len(recs), rep)
	}
}
