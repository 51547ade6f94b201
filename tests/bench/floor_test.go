package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// stepServer is `awf mcp-serve` with the config awf writes for an agent step, reading a 4 KiB
// file in a temp root.
func stepServer(b *testing.B) server {
	root := filepath.Join(b.TempDir(), "root")
	if err := os.MkdirAll(root, 0o700); err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(root, "file4k.txt")
	if err := os.WriteFile(file, []byte(strings.Repeat(strings.Repeat("y", 63)+"\n", 64)), 0o644); err != nil {
		b.Fatal(err)
	}
	srv := stepServerAt(b, root)
	srv.tool = "Read"
	srv.args, _ = json.Marshal(map[string]any{"file_path": file})
	return srv
}

// stepServerAt is `awf mcp-serve` over root with the config awf writes for an agent step
// (activity file, log file, ready file, run id and step name, the default sandbox mode), with a
// temp HOME and TMPDIR; extra keys, if any, are merged into the config.
func stepServerAt(b *testing.B, root string, extra ...map[string]any) server {
	dir := b.TempDir()
	home, tmp, run := filepath.Join(dir, "home"), filepath.Join(dir, "tmp"), filepath.Join(dir, "run")
	for _, d := range []string{home, tmp, run} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			b.Fatal(err)
		}
	}
	cfg := filepath.Join(run, "config.json")
	config := map[string]any{"root_dir": root, "activity_file": filepath.Join(run, "activity.jsonl"),
		"log_file": filepath.Join(run, "awf.log"), "ready_file": filepath.Join(run, "ready.json"), "run_id": "bench", "step": "agent"}
	for _, e := range extra {
		maps.Copy(config, e)
	}
	body, _ := json.Marshal(config)
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		b.Fatal(err)
	}
	return server{name: "awf", cmd: func() *exec.Cmd {
		cmd := exec.Command(serveBin, "mcp-serve", "--config", cfg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "HOME="+home, "TMPDIR="+tmp)
		return cmd
	}}
}

// blobServer is the floor returning size bytes for a tiny request. With listed (a file holding
// a tools/list's tools), it also lists those tools, so that its tools/list answer carries the
// same bytes as the server it is compared with.
func blobServer(name string, size int, listed string) server {
	return server{name: name, tool: "blob", args: json.RawMessage(`{"size":` + strconv.Itoa(size) + `}`),
		cmd: func() *exec.Cmd {
			cmd := exec.Command(floorBin)
			if listed != "" {
				cmd.Env = append(os.Environ(), "FLOOR_TOOLS="+listed)
			}
			return cmd
		}}
}

// benchRounds is how many alternating rounds the comparison runs (AWF_BENCH_ROUNDS, default 4).
func benchRounds() int {
	if n, err := strconv.Atoi(os.Getenv("AWF_BENCH_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 4
}

// BenchmarkAtTheFloor prints the table of the docs/decisions/0015-performance-at-the-floor.md per-call and cold-start rows: awf
// mcp-serve reading a 4 KiB file against the go-sdk floor returning the same number of bytes
// for a tiny request, through the go-sdk client and through a raw newline-JSON client, over
// alternating rounds in one run. Each cell is a ratio awf/floor; the spread over the rounds is
// what to read, since the shared machine moves single figures by 40 %.
func BenchmarkAtTheFloor(b *testing.B) {
	if atFloor == nil {
		atFloor = measureAtFloor(b)
		atFloor.print(os.Stdout)
	}
	for _, r := range atFloor.rows {
		b.ReportMetric(r.median(), r.metric)
	}
	b.ReportMetric(atFloor.peakMiB, "awf-peak-RSS-MiB")
}

var atFloor *floorTable

func measureAtFloor(b *testing.B) *floorTable {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	awf := stepServer(b)
	size, listed, err := awfFacts(ctx, awf, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	floor := blobServer("floor", size, listed)
	// The floor of the table before it listed awf's tools: two tools, a 416-byte tools/list
	// against awf's ten kilobytes of tool descriptions. Kept as an information row.
	bare := blobServer("bare", size, "")
	t := newFloorTable(size)
	// k spawns of each server per round and client: the p50 of 15 moved by ±15 % from round to
	// round on this machine, the p95 of 15 is nearly its maximum.
	const n, n8, k = 500, 1000, 40
	for round := range benchRounds() {
		pair := inTurn(floor, awf, round)
		for _, v := range views {
			figs := map[string]callFigures{}
			for _, srv := range pair {
				f, err := measureCalls(ctx, v, srv, n, n8)
				if err != nil {
					b.Fatalf("%s via %s: %v", srv.name, v.name, err)
				}
				figs[srv.name] = f
			}
			cf, ca, err := alternateColdStarts(ctx, v, pair, k)
			if err != nil {
				b.Fatal(err)
			}
			cb, cab, err := alternateColdStarts(ctx, v, inTurn(bare, awf, round), k)
			if err != nil {
				b.Fatal(err)
			}
			t.add(v.name, figs["floor"], figs["awf"], cf, ca, cb, cab)
		}
	}
	return t
}

// awfFacts asks one awf session what the floor must match: the length of the text awf's Read
// returns (the file with its line numbers), the size the floor is asked for so both send the
// same bytes; and the tools awf lists, written to a file in dir whose path it returns, which
// the floor lists too, so that the cold-start rows compare the same tools/list bytes.
func awfFacts(ctx context.Context, awf server, dir string) (size int, listed string, err error) {
	s, err := openSDK(ctx, awf.cmd())
	if err != nil {
		return 0, "", err
	}
	defer s.close()
	text, err := s.call(ctx, awf.tool, awf.args)
	if err != nil {
		return 0, "", err
	}
	res, err := s.(*sdkSession).cs.ListTools(ctx, nil)
	if err != nil {
		return 0, "", err
	}
	data, err := json.Marshal(res.Tools)
	if err != nil {
		return 0, "", err
	}
	listed = filepath.Join(dir, "awf-tools.json")
	return len(text), listed, os.WriteFile(listed, data, 0o600)
}

// inTurn is the pair in the order of the round: who goes first alternates.
func inTurn(floor, awf server, round int) [2]server {
	if round%2 == 1 {
		return [2]server{awf, floor}
	}
	return [2]server{floor, awf}
}

// alternateColdStarts spawns the two servers in turn, k times each: awf (by its name) and a
// floor.
func alternateColdStarts(ctx context.Context, v clientView, pair [2]server, k int) (floor, awf []time.Duration, err error) {
	got := map[string][]time.Duration{}
	for range k {
		for _, srv := range pair {
			d, err := coldStarts(ctx, v, srv, 1)
			if err != nil {
				return nil, nil, fmt.Errorf("cold start of %s via %s: %w", srv.name, v.name, err)
			}
			got[srv.name] = append(got[srv.name], d...)
		}
	}
	for name, d := range got {
		if name != "awf" {
			floor = d
		}
	}
	return sorted(floor), sorted(got["awf"]), nil
}
