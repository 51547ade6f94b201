package usecase

import (
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

func TestHistoryFilters(t *testing.T) {
	t0 := time.Unix(1000, 0)
	store := &memRuns{alive: map[int]bool{7: true}, tools: map[string]int{"r2": 4}, recs: map[string]runrecord.Record{
		"r1": {ID: "r1", Workflow: "a", Status: runrecord.Succeeded, Started: t0, Ended: t0.Add(time.Second)},
		"r2": {ID: "r2", Workflow: "b", Status: runrecord.Running, PID: 99, Started: t0.Add(time.Minute)},
		"r3": {ID: "r3", Workflow: "a", Status: runrecord.Running, PID: 7, Started: t0.Add(2 * time.Minute)},
		"r4": {ID: "r4", Workflow: "a", Status: runrecord.Interrupted, Started: t0.Add(3 * time.Minute)},
	}}
	tests := []struct {
		f       HistoryFilter
		want    string
		wantErr string
	}{
		{f: HistoryFilter{}, want: "r4:interrupted,r3:running,r2:crashed,r1:success"},
		{f: HistoryFilter{Workflow: "a"}, want: "r4:interrupted,r3:running,r1:success"},
		{f: HistoryFilter{Status: "success"}, want: "r1:success"},
		{f: HistoryFilter{Status: "succeeded"}, want: "r1:success"}, // older releases' word
		{f: HistoryFilter{Status: "Cancelled"}, want: "r4:interrupted"},
		{f: HistoryFilter{Status: "failed"}, want: ""},
		{f: HistoryFilter{Status: runrecord.Crashed}, want: "r2:crashed"},
		{f: HistoryFilter{Workflow: "a", Status: runrecord.Running}, want: "r3:running"},
		{f: HistoryFilter{Limit: 2}, want: "r4:interrupted,r3:running"},
		{f: HistoryFilter{Workflow: "zzz"}, want: ""},
		{f: HistoryFilter{Status: "runing"}, wantErr: fault.UserCLIInvalidStatus},
	}
	for _, tt := range tests {
		got, err := Runs{Store: store}.History(tt.f)
		if tt.wantErr != "" {
			if fault.CodeOf(err) != tt.wantErr {
				t.Fatalf("%+v: err %v", tt.f, err)
			}
			continue
		}
		var ids []string
		for _, s := range got {
			ids = append(ids, s.ID+":"+s.Status)
		}
		if strings.Join(ids, ",") != tt.want {
			t.Fatalf("%+v: got %v, want %s", tt.f, ids, tt.want)
		}
	}
	s, err := Runs{Store: store}.Status("r2")
	if err != nil || s.ToolCalls != 4 || s.Status != runrecord.Crashed {
		t.Fatalf("status r2: %+v %v", s, err)
	}
	if _, err := (Runs{Store: store}).Status("nope"); fault.CodeOf(err) != fault.UserRunNotFound {
		t.Fatalf("status nope: %v", err)
	}
}
