package bench_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// server is one side of a comparison: how to spawn it and the call that is timed.
type server struct {
	name string
	cmd  func() *exec.Cmd
	tool string
	args json.RawMessage
}

// callFigures are one session's figures for one round.
type callFigures struct {
	p50, p99   time.Duration // sequential calls, 1 in flight
	perSec8    float64       // calls/s with 8 in flight on the one session
	cpu1, cpu8 time.Duration // server CPU per call at 1 and at 8 in flight
	peakMiB    float64       // the server's VmHWM at the end
}

// measureCalls opens a session with srv through view and times it: a warm-up, n sequential
// calls, then n8 calls with 8 in flight. The server's CPU comes from its threads' schedstat.
func measureCalls(ctx context.Context, view clientView, srv server, n, n8 int) (callFigures, error) {
	s, err := view.open(ctx, srv.cmd())
	if err != nil {
		return callFigures{}, err
	}
	defer s.close()
	for range 30 {
		if _, err := s.call(ctx, srv.tool, srv.args); err != nil {
			return callFigures{}, err
		}
	}
	var f callFigures
	lat := make([]time.Duration, n)
	cpu0 := serverCPU(s.pid())
	for i := range lat {
		start := time.Now()
		if _, err := s.call(ctx, srv.tool, srv.args); err != nil {
			return f, err
		}
		lat[i] = time.Since(start)
	}
	cpu1 := serverCPU(s.pid())
	slices.Sort(lat)
	f.p50, f.p99, f.cpu1 = nearestRank(lat, 0.50), nearestRank(lat, 0.99), (cpu1-cpu0)/time.Duration(n)

	var (
		wg   sync.WaitGroup
		errs = make(chan error, 8)
	)
	start := time.Now()
	for range 8 {
		wg.Go(func() {
			for range n8 / 8 {
				if _, err := s.call(ctx, srv.tool, srv.args); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return f, err
	}
	f.perSec8 = float64(n8/8*8) / elapsed.Seconds()
	f.cpu8 = (serverCPU(s.pid()) - cpu1) / time.Duration(n8/8*8)
	f.peakMiB = peakRSSMiB(s.pid())
	return f, nil
}

// coldStarts spawns srv k times through view and returns, sorted, the time from spawn to the
// answer of tools/list (initialize and the initialized notification on the way).
func coldStarts(ctx context.Context, view clientView, srv server, k int) ([]time.Duration, error) {
	out := make([]time.Duration, 0, k)
	for range k {
		start := time.Now()
		s, err := view.open(ctx, srv.cmd())
		if err != nil {
			return nil, err
		}
		err = s.listTools(ctx)
		out = append(out, time.Since(start))
		s.close()
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return out, nil
}

// nearestRank is the p-th percentile of sorted d by the nearest-rank method.
func nearestRank(d []time.Duration, p float64) time.Duration {
	i := int(float64(len(d))*p+0.999999) - 1
	return d[min(max(i, 0), len(d)-1)]
}

// serverCPU is the CPU time used so far by every thread of process pid (the first field of
// /proc/<pid>/task/*/schedstat, nanoseconds on CPU). Threads that already exited are not
// counted; the Go runtime keeps its threads for the life of the process.
func serverCPU(pid int) time.Duration {
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "schedstat"))
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			total += time.Duration(ns)
		}
	}
	return total
}
