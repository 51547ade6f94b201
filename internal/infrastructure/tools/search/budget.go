package search

import "sync"

// bigBuffers lends the read buffers of files larger than keepBufferMax, within bigBudget.
var bigBuffers = newBufferBudget(bigBudget, bigBufferUnit)

// bigBufferUnit is the capacity a lent buffer has at least, so that one buffer given back serves
// any file up to that size next (all but a handful of source files are smaller).
const bigBufferUnit = 4 << 20

// bufferBudget lends byte buffers out of a fixed amount of memory: the buffers in existence,
// lent or given back and kept for the next borrower, never hold more than budget bytes. A
// borrower reuses a kept buffer large enough; else a new one is made if the budget allows,
// after dropping kept buffers that do not fit; else it waits for one to be given back.
type bufferBudget struct {
	mu        sync.Mutex
	cond      sync.Cond
	budget    int
	unit      int
	allocated int      // capacity of the buffers lent and kept
	kept      [][]byte // given back, ready to lend
}

func newBufferBudget(budget, unit int) *bufferBudget {
	b := &bufferBudget{budget: budget, unit: min(unit, budget)}
	b.cond.L = &b.mu
	return b
}

// take returns a buffer of at least n bytes (n at most the budget), waiting while the budget is
// lent out.
func (b *bufferBudget) take(n int) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	size := max(n, b.unit)
	for {
		for i, k := range b.kept {
			if cap(k) >= n {
				b.kept = append(b.kept[:i], b.kept[i+1:]...)
				return k[:n]
			}
		}
		for b.allocated+size > b.budget && len(b.kept) > 0 {
			b.allocated -= cap(b.kept[0])
			b.kept = b.kept[1:]
		}
		if b.allocated+size <= b.budget {
			b.allocated += size
			return make([]byte, n, size)
		}
		b.cond.Wait()
	}
}

// give hands buf, returned by take, back for the next borrower.
func (b *bufferBudget) give(buf []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.kept = append(b.kept, buf[:0])
	b.cond.Broadcast()
}
