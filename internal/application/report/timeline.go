package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
)

// Lane kinds: what a timeline row stands for.
const (
	LaneStep       = "step"
	LaneIteration  = "iteration"
	LaneBranch     = "branch"
	LaneSubflow    = "sub-workflow step"
	LaneUnfinished = "unfinished"
)

// Lane is one row of the timeline. Left and Width place it in percent of the run's span.
type Lane struct {
	Label, Name, Within, Kind, Type, Status string
	Start, Duration                         time.Duration
	Left, Width                             float64
	// Marks are the tool calls made on this lane.
	Marks []Mark
}

// Mark is one tool call on a lane: Call indexes View.Calls.
type Mark struct {
	Call        int
	Left, Width float64
}

// span is a lane before it is shown: raw names and absolute times. label is the name the
// step's activity records and model requests carry: the name with the index of each enclosing
// loop, outermost first ("review[1][0]"), as the engine labels them.
type span struct {
	name, within, typ, status, label string
	start, end                       time.Time
	// step is the record index (-1 for a lane made for calls of a step the record lacks).
	step int
}

// timeline places steps and calls in time. Steps are placed by their end line in run.log (the
// end minus the duration); a step without one follows the previous main-flow step.
type timeline struct {
	t0, t1   time.Time
	spans    []span
	callLane []int
	// recLane maps a record step's index to its lane.
	recLane map[int]int
}

func newTimeline(in Input) *timeline {
	tl := &timeline{t0: in.Record.Started, recLane: map[int]int{}}
	if tl.t0.IsZero() {
		tl.t0 = earliest(in)
	}
	ends := map[string][]LogLine{}
	for _, l := range in.Log {
		if isStepEnd(l.Msg) {
			k := logKey(l)
			ends[k] = append(ends[k], l)
		}
	}
	cursor := tl.t0
	for i, st := range in.Record.Steps {
		sp := span{name: st.Name, within: st.Within, typ: st.Type, status: st.Status, step: i, label: recordLabel(st.Within, st.Name)}
		k := endKey(st.Within, st.Name)
		if q := ends[k]; len(q) > 0 {
			sp.end, ends[k] = q[0].Time, q[1:]
			sp.start = sp.end.Add(-q[0].Duration)
		} else {
			sp.start = cursor
			sp.end = cursor.Add(time.Duration(st.DurationMS) * time.Millisecond)
		}
		if st.Within == "" && sp.end.After(cursor) {
			cursor = sp.end
		}
		tl.spans = append(tl.spans, sp)
	}
	sort.SliceStable(tl.spans, func(i, j int) bool { return tl.spans[i].start.Before(tl.spans[j].start) })
	for i, sp := range tl.spans {
		tl.recLane[sp.step] = i
	}
	tl.place(in.Calls)
	tl.t1 = tl.latest(in)
	return tl
}

func isStepEnd(msg string) bool {
	return msg == MsgStepSucceeded || msg == MsgStepFailed || msg == MsgStepStopped
}

// endKey is what a step's end line in run.log says of where the step ran: its innermost loop
// iteration ("loop[i]") and the parallel state it is a branch of, when it is directly one (the
// log's loop, loop_index and parallel fields). Steps of the same key end in the order the
// record lists them, so the n-th line of a key ends the n-th step of it, nested loops
// included.
func endKey(within, name string) string {
	parts := strings.Split(within, "/")
	loop, branch := "", ""
	for _, p := range parts {
		if strings.HasSuffix(p, "]") {
			loop = p
		}
	}
	if last := parts[len(parts)-1]; last != "" && !strings.HasSuffix(last, "]") {
		branch = last
	}
	return loop + "\x00" + branch + "\x00" + name
}

// logKey is the endKey of the step a log line ends; a sub-workflow's step is "call/step".
func logKey(l LogLine) string {
	name, loop := l.Step, ""
	if l.Call != "" {
		name = l.Call + "/" + l.Step
	}
	if l.Loop != "" {
		loop = fmt.Sprintf("%s[%d]", l.Loop, l.LoopIndex)
	}
	return loop + "\x00" + l.Parallel + "\x00" + name
}

// recordLabel is how activity records and model requests name the step name run at within:
// the name followed by the index of each loop iteration in within, outermost first.
func recordLabel(within, name string) string {
	var idx strings.Builder
	for _, p := range strings.Split(within, "/") {
		if i := strings.LastIndexByte(p, '['); i >= 0 && strings.HasSuffix(p, "]") {
			idx.WriteString(p[i:])
		}
	}
	return name + idx.String()
}

// place assigns each call to a lane (see laneFor); calls of a step the record does not hold
// (a step an interrupt stopped) get a lane of their own.
func (tl *timeline) place(calls []activity.Record) {
	tl.callLane = make([]int, len(calls))
	for i, c := range calls {
		l := tl.laneFor(c.Step, c.Time)
		if l < 0 {
			tl.spans = append(tl.spans, span{name: c.Step, label: c.Step, status: LaneUnfinished, start: c.Time, end: callEnd(c), step: -1})
			l = len(tl.spans) - 1
		}
		if sp := &tl.spans[l]; sp.step < 0 {
			sp.start, sp.end = minTime(sp.start, c.Time), maxTime(sp.end, callEnd(c))
		}
		tl.callLane[i] = l
	}
}

// laneFor picks the lane of a step at time at. step is a record's step: its name with the
// index of each loop it ran in ("review[0]"), so a call inside a loop lands on its iteration's
// lane. Among the lanes of that label (or a sub-workflow's "call/label"), else of that plain
// name, the one running at that moment wins, else the nearest in time; -1 when no lane has it.
func (tl *timeline) laneFor(step string, at time.Time) int {
	if l := tl.nearest(at, func(sp span) bool { return sp.label == step || strings.HasSuffix(sp.label, "/"+step) }); l >= 0 {
		return l
	}
	return tl.nearest(at, func(sp span) bool { return sp.name == step || strings.HasSuffix(sp.name, "/"+step) })
}

// nearest is the lane among those match accepts running at at, else the nearest in time; -1
// when match accepts none. A lane made for calls of an unrecorded step is matched by name.
func (tl *timeline) nearest(at time.Time, match func(span) bool) int {
	best, bestGap := -1, time.Duration(-1)
	for i, sp := range tl.spans {
		if !match(sp) {
			continue
		}
		gap := time.Duration(0)
		if at.Before(sp.start) {
			gap = sp.start.Sub(at)
		} else if at.After(sp.end) {
			gap = at.Sub(sp.end)
		}
		if best < 0 || gap < bestGap {
			best, bestGap = i, gap
		}
	}
	return best
}

func callEnd(c activity.Record) time.Time {
	return c.Time.Add(time.Duration(c.DurationMS * float64(time.Millisecond)))
}

func earliest(in Input) time.Time {
	var t time.Time
	for _, c := range in.Calls {
		t = minTime(t, c.Time)
	}
	for _, l := range in.Log {
		t = minTime(t, l.Time)
	}
	return t
}

func (tl *timeline) latest(in Input) time.Time {
	t := in.Record.Ended
	if t.IsZero() {
		t = in.Record.Updated
	}
	for _, sp := range tl.spans {
		t = maxTime(t, sp.end)
	}
	for _, c := range in.Calls {
		t = maxTime(t, callEnd(c))
	}
	return t
}

// minTime is the earlier of two times, a zero one losing.
func minTime(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func (tl *timeline) span() time.Duration {
	if tl.t1.Before(tl.t0) {
		return 0
	}
	return tl.t1.Sub(tl.t0)
}

// pct is where t falls in the run's span, in percent, clamped to 0..100.
func (tl *timeline) pct(t time.Time) float64 {
	total := tl.span()
	if total <= 0 {
		return 0
	}
	p := float64(t.Sub(tl.t0)) / float64(total) * 100
	return min(max(p, 0), 100)
}

// lanes turns the spans into the timeline's rows (without marks: see marks).
func (tl *timeline) lanes(t text) []Lane {
	out := make([]Lane, len(tl.spans))
	for i, sp := range tl.spans {
		l := Lane{Name: t.line(sp.name, CellExcerpt), Within: t.line(sp.within, CellExcerpt), Type: sp.typ, Status: t.line(sp.status, CellExcerpt),
			Kind: laneKind(sp), Start: sp.start.Sub(tl.t0), Duration: sp.end.Sub(sp.start)}
		l.Label = l.Name
		if l.Within != "" {
			l.Label = l.Within + " › " + l.Name
		}
		l.Left = tl.pct(sp.start)
		l.Width = tl.pct(sp.end) - l.Left
		out[i] = l
	}
	return out
}

func laneKind(sp span) string {
	switch {
	case sp.step < 0:
		return LaneUnfinished
	case strings.HasSuffix(sp.within, "]"):
		return LaneIteration
	case sp.within != "":
		return LaneBranch
	case strings.Contains(sp.name, "/"):
		return LaneSubflow
	}
	return LaneStep
}

// marks puts each call on its lane.
func (tl *timeline) marks(lanes []Lane, calls []Call) {
	for i, c := range calls {
		l := &lanes[tl.callLane[i]]
		left := tl.pct(c.Time)
		l.Marks = append(l.Marks, Mark{Call: i, Left: left, Width: tl.pct(c.Time.Add(c.Duration)) - left})
	}
}
