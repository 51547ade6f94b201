package runrecord

import (
	"slices"
	"time"
)

// Entry is one line of a run's journal: what one transition changed in the record. A run
// appends an entry per transition instead of rewriting its whole record, so the cost of a
// transition does not grow with the run; the record is written whole at the start and at the
// end (compaction), and a reader applies the entries after it to what state.json holds
// (docs/decisions/0014-persisted-runs-and-conversations.md).
type Entry struct {
	// N numbers the entries of a record from 1, following Record.Seq.
	N  int       `json:"n"`
	At time.Time `json:"at"`
	// Status, when set, is the run's new status.
	Status string `json:"status,omitempty"`
	// Current, when set, is the main-flow state the run is now in.
	Current string `json:"current,omitempty"`
	// Started is a loop iteration or parallel branch that started ("within/name").
	Started string `json:"started,omitempty"`
	// Step is a state that finished; one inside a loop or branch leaves Active.
	Step *Step `json:"step,omitempty"`
	// Masked are texts added to the record's mask set.
	Masked []string `json:"masked,omitempty"`
}

// Journal is where a run appends its entries between two whole writes of its record.
type Journal interface {
	// Append writes one entry after the others; a reader that finds a torn last line
	// ignores it.
	Append(e Entry) error
	// Close releases the journal; the entries stay until the record is written whole again.
	Close() error
}

// Apply changes the record as entry e says, unless the record already holds it (e.N not
// after Seq); it reports whether it applied e.
func (r *Record) Apply(e Entry) bool {
	if e.N <= r.Seq {
		return false
	}
	r.Seq = e.N
	if !e.At.IsZero() {
		r.Updated = e.At
	}
	if e.Status != "" {
		r.Status = e.Status
	}
	if e.Current != "" {
		r.Current = e.Current
	}
	if e.Started != "" {
		r.Active = append(r.Active, e.Started)
	}
	if st := e.Step; st != nil {
		if st.Within != "" {
			if i := slices.Index(r.Active, st.Within+"/"+st.Name); i >= 0 {
				r.Active = slices.Delete(r.Active, i, i+1)
			}
		}
		r.Steps = append(r.Steps, *st)
	}
	r.Masked = append(r.Masked, e.Masked...)
	return true
}
