package bench_test

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// ratioRow is one row of the table: a ratio awf/floor per round, its goal, and what it is
// reported as (b.ReportMetric unit).
type ratioRow struct {
	label, view, metric string
	atMost              bool    // the goal is an upper bound (≤), else a lower bound (≥)
	goal                float64 // the goal on the ratio
	ratios              []float64
	awf, floor          []float64 // the absolute figures behind each ratio
	unit                string
}

func (r *ratioRow) median() float64 { return medianOf(r.ratios) }

// met reports whether every round meets the goal.
func (r *ratioRow) met() bool {
	for _, x := range r.ratios {
		if r.atMost && x > r.goal || !r.atMost && x < r.goal {
			return false
		}
	}
	return len(r.ratios) > 0
}

// floorTable collects the rows of both client views over the rounds.
type floorTable struct {
	replyBytes int
	rows       []*ratioRow
	peakMiB    float64 // the highest VmHWM of an awf session over the rounds
}

func newFloorTable(size int) *floorTable {
	t := &floorTable{replyBytes: size}
	for _, v := range views {
		t.rows = append(t.rows,
			&ratioRow{label: "Read 4 KiB p50, 1 in flight", view: v.name, metric: v.name + "-p50-ratio", atMost: true, goal: 1.10, unit: "µs"},
			&ratioRow{label: "Read 4 KiB p99, 1 in flight (info)", view: v.name, metric: v.name + "-p99-ratio", atMost: true, goal: 2, unit: "µs"},
			&ratioRow{label: "calls/s, 8 in flight", view: v.name, metric: v.name + "-calls/s-ratio", goal: 0.9, unit: "calls/s"},
			&ratioRow{label: "server CPU per call, 1 in flight", view: v.name, metric: v.name + "-cpu1-ratio", atMost: true, goal: 1.2, unit: "µs"},
			&ratioRow{label: "server CPU per call, 8 in flight", view: v.name, metric: v.name + "-cpu8-ratio", atMost: true, goal: 1.2, unit: "µs"},
			&ratioRow{label: "cold start p50 (spawn→initialize→tools/list)", view: v.name, metric: v.name + "-cold-p50-ratio", atMost: true, goal: 1.2, unit: "ms"},
			&ratioRow{label: "cold start p95", view: v.name, metric: v.name + "-cold-p95-ratio", atMost: true, goal: 2, unit: "ms"},
			&ratioRow{label: "cold start p50, floor listing only its 2 tools (info)", view: v.name, metric: v.name + "-cold-bare-p50-ratio", atMost: true, goal: 1.2, unit: "ms"},
		)
	}
	return t
}

// add records one round of one view: the per-call figures, the cold starts against the floor
// listing awf's tools, and against the floor listing only its own.
func (t *floorTable) add(view string, floor, awf callFigures, coldFloor, coldAWF, coldBare, coldAWFBare []time.Duration) {
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	pairs := [][2]float64{
		{us(awf.p50), us(floor.p50)},
		{us(awf.p99), us(floor.p99)},
		{awf.perSec8, floor.perSec8},
		{us(awf.cpu1), us(floor.cpu1)},
		{us(awf.cpu8), us(floor.cpu8)},
		{ms(nearestRank(coldAWF, 0.5)), ms(nearestRank(coldFloor, 0.5))},
		{ms(nearestRank(coldAWF, 0.95)), ms(nearestRank(coldFloor, 0.95))},
		{ms(nearestRank(coldAWFBare, 0.5)), ms(nearestRank(coldBare, 0.5))},
	}
	t.peakMiB = max(t.peakMiB, awf.peakMiB)
	i := 0
	for _, r := range t.rows {
		if r.view != view {
			continue
		}
		r.awf, r.floor = append(r.awf, pairs[i][0]), append(r.floor, pairs[i][1])
		r.ratios = append(r.ratios, pairs[i][0]/pairs[i][1])
		i++
	}
}

// print writes the table as Markdown: per row the goal, each round's ratio, the spread, the
// medians of the absolute figures and whether every round met the goal.
func (t *floorTable) print(w io.Writer) {
	fmt.Fprintf(w, "\nawf mcp-serve (step config, Read of a 4 KiB file) vs the go-sdk floor (blob of %d bytes, the same reply; it lists awf's tools too, the same tools/list), ratio awf/floor per alternating round\n\n", t.replyBytes)
	fmt.Fprintln(w, "| row | client | goal | ratio per round | min–max | awf (median) | floor (median) | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range t.rows {
		cmp := "≥"
		if r.atMost {
			cmp = "≤"
		}
		per := make([]string, len(r.ratios))
		for i, x := range r.ratios {
			per[i] = fmt.Sprintf("%.2f", x)
		}
		met := "no"
		if r.met() {
			met = "yes"
		}
		fmt.Fprintf(w, "| %s | %s | %s %.2f× | %s | %.2f–%.2f | %.1f %s | %.1f %s | %s |\n", r.label, r.view, cmp, r.goal,
			strings.Join(per, " "), slices.Min(r.ratios), slices.Max(r.ratios), medianOf(r.awf), r.unit, medianOf(r.floor), r.unit, met)
	}
	fmt.Fprintf(w, "\nawf mcp-serve peak RSS over these sessions: %.1f MiB\n\n", t.peakMiB)
}

func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func sorted(d []time.Duration) []time.Duration {
	slices.Sort(d)
	return d
}
