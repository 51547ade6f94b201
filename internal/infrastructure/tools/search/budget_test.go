package search

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestBufferBudgetWaitsAndReuses(t *testing.T) {
	b := newBufferBudget(100, 40)
	first, other := b.take(10), b.take(50)
	if len(first) != 10 || cap(first) != 40 || cap(other) != 50 || b.allocated != 90 {
		t.Fatalf("take(10), take(50): caps %d and %d, %d allocated", cap(first), cap(other), b.allocated)
	}
	got := make(chan []byte)
	go func() { got <- b.take(30) }()
	select {
	case <-got:
		t.Fatal("made a 40-byte buffer with 90 of 100 bytes allocated")
	case <-time.After(50 * time.Millisecond):
	}
	b.give(first)
	if second := <-got; &second[:1][0] != &first[:1][0] {
		t.Fatal("the buffer given back was not reused")
	} else {
		b.give(second)
	}
	// A request the kept buffer cannot serve drops it to make room.
	b.give(other)
	if big := b.take(60); cap(big) != 60 || b.allocated != 60 || len(b.kept) != 0 {
		t.Fatalf("take(60) with 40 and 50 kept: cap %d, %d allocated, %d kept", cap(big), b.allocated, len(b.kept))
	}
}

func TestBufferBudgetUnderContention(t *testing.T) {
	b := newBufferBudget(100, 20)
	var wg sync.WaitGroup
	var mu sync.Mutex
	held, most := 0, 0
	for i := range 16 {
		wg.Go(func() {
			for range 200 {
				buf := b.take(10 + (i*7)%60)
				mu.Lock()
				held += cap(buf)
				most = max(most, held)
				mu.Unlock()
				buf[len(buf)-1] = 1
				mu.Lock()
				held -= cap(buf)
				mu.Unlock()
				b.give(buf)
			}
		})
	}
	wg.Wait()
	if most > 100 || b.allocated > 100 {
		t.Fatalf("at most %d bytes lent at once, %d allocated (budget 100)", most, b.allocated)
	}
}

// TestGrepLargeFilesWithinTheBudget: files larger than a worker keeps are read into lent
// buffers, counted right, and every lent buffer is back when the call returns.
func TestGrepLargeFilesWithinTheBudget(t *testing.T) {
	dir := t.TempDir()
	line := strings.Repeat("x", 63) + "\n"
	for i, lines := range []int{5000, 9000, 20000} { // 320 KB, 576 KB, 1.28 MB
		body := strings.Repeat(line, lines-1) + "needle\n"
		if err := os.WriteFile(filepath.Join(dir, "big"+string(rune('a'+i))+".txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	counts := grepCounts(t, openRoot(t, dir), "needle", 2)
	if len(counts) != 3 {
		t.Fatalf("counts %v, want one match in each of 3 files", counts)
	}
	for f, n := range counts {
		if n != 1 {
			t.Fatalf("%s: %d matches", f, n)
		}
	}
	bigBuffers.mu.Lock()
	kept, allocated := 0, bigBuffers.allocated
	for _, k := range bigBuffers.kept {
		kept += cap(k)
	}
	bigBuffers.mu.Unlock()
	if kept != allocated || allocated > bigBudget {
		t.Fatalf("after the call: %d bytes kept of %d allocated (budget %d): a buffer was not given back", kept, allocated, bigBudget)
	}
}
