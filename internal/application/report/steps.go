package report

import "time"

// StepSummary is one finished step (or sub-step) as the summaries show it.
type StepSummary struct {
	Label, Name, Within, Type, Status string
	ExitCode                          int
	Duration                          time.Duration
	Attempts                          int
	Next                              string
	// Output and Stderr are masked excerpts (OutputExcerpt bytes at most).
	Output, Stderr, Error string
	// Calls counts the tool calls made on the step's lane.
	Calls int
	// Tokens and cost as the model provider reported them (run.log); Requests counts the model
	// requests, 0 when the provider reports nothing.
	Requests                   int
	PromptTokens, OutputTokens int
	CostUSD                    float64
}

// summaries lists the record's steps in the order they finished, with the tool calls and model
// usage of the lane each one ran on.
func summaries(in Input, tl *timeline, lanes []Lane, t text) []StepSummary {
	usage := make([]StepSummary, len(tl.spans))
	for _, l := range in.Log {
		if l.Msg != MsgModelRequest {
			continue
		}
		if i := tl.laneFor(l.Step, l.Time); i >= 0 {
			usage[i].Requests++
			usage[i].PromptTokens += l.PromptTokens
			usage[i].OutputTokens += l.CompletionTokens
			usage[i].CostUSD += l.CostUSD
		}
	}
	out := make([]StepSummary, 0, len(in.Record.Steps))
	for i, st := range in.Record.Steps {
		s := StepSummary{
			Name: t.line(st.Name, CellExcerpt), Within: t.line(st.Within, CellExcerpt), Type: t.line(st.Type, 40), Status: t.line(st.Status, 40),
			ExitCode: st.ExitCode, Duration: time.Duration(st.DurationMS) * time.Millisecond, Attempts: st.Attempts, Next: t.line(st.Next, CellExcerpt),
			Output: t.block(st.Output, OutputExcerpt), Stderr: t.block(st.Stderr, OutputExcerpt), Error: t.block(st.Error, OutputExcerpt),
		}
		s.Label = s.Name
		if s.Within != "" {
			s.Label = s.Within + " › " + s.Name
		}
		if l, ok := tl.recLane[i]; ok {
			u := usage[l]
			s.Calls = len(lanes[l].Marks)
			s.Requests, s.PromptTokens, s.OutputTokens, s.CostUSD = u.Requests, u.PromptTokens, u.OutputTokens, u.CostUSD
		}
		out = append(out, s)
	}
	return out
}
