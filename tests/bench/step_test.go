package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/accel"
)

// stepCalls is the length of the agent session BenchmarkStepSession times.
const stepCalls = 200

// stepAccels are the accelerators BenchmarkStepSession switches off one at a time, by the name
// AWF_ACCEL_OFF knows them by.
var stepAccels = []string{accel.MCPDirect, accel.BridgeRaw}

// stepMode is one configuration of the server: the value of AWF_ACCEL_OFF.
type stepMode struct{ name, off string }

// stepModes are every accelerator on, every one off, and each one off alone.
func stepModes() []stepMode {
	modes := []stepMode{{"all on", ""}, {"all off", "all"}}
	for _, a := range stepAccels {
		modes = append(modes, stepMode{a + " off", a})
	}
	return modes
}

// stepFigures are one session's wall time, spawn to exit, and the server's own CPU time.
type stepFigures struct{ wall, cpu time.Duration }

// BenchmarkStepSession times a whole agent step through a real awf-serve and the official go-sdk
// client: spawn, initialize, tools/list, then stepCalls calls in turn of Read (4 KiB), Grep (a
// 60-file tree), Edit, Bash and a call bridged to the fixture MCP server (a `type: mcp` plugin,
// so awf-serve hands the step to awf), then close. Each mode of stepModes runs once per round,
// the order rotating from round to round; each figure is the median over the rounds of a mode's
// ratio to "all on" in the same round, so the machine's load cancels out. An accelerator whose
// "off" ratio stays within noise of 1 does not earn its code.
func BenchmarkStepSession(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	srv, calls := stepSessionSetup(b)
	modes := stepModes()
	for _, m := range modes { // warm-up: page cache, the sandbox probe
		if _, err := runStepSession(ctx, srv, m, calls); err != nil {
			b.Fatalf("%s: %v", m.name, err)
		}
	}
	wall, cpu := map[string][]float64{}, map[string][]float64{}
	abs, absCPU := map[string][]time.Duration{}, map[string][]time.Duration{}
	b.ResetTimer()
	for round := range benchRounds() * max(b.N, 1) {
		got := map[string]stepFigures{}
		for i := range modes {
			m := modes[(i+round)%len(modes)]
			f, err := runStepSession(ctx, srv, m, calls)
			if err != nil {
				b.Fatalf("%s: %v", m.name, err)
			}
			got[m.name] = f
			abs[m.name] = append(abs[m.name], f.wall)
			absCPU[m.name] = append(absCPU[m.name], f.cpu)
		}
		base := got["all on"]
		for _, m := range modes {
			wall[m.name] = append(wall[m.name], float64(got[m.name].wall)/float64(base.wall))
			cpu[m.name] = append(cpu[m.name], float64(got[m.name].cpu)/float64(base.cpu))
		}
	}
	b.StopTimer()
	printStepTable(os.Stdout, modes, wall, cpu, abs, absCPU)
	for _, m := range modes[1:] {
		b.ReportMetric(medianOf(wall[m.name]), strings.ReplaceAll(m.name, " ", "-")+"-wall-ratio")
		b.ReportMetric(medianOf(cpu[m.name]), strings.ReplaceAll(m.name, " ", "-")+"-cpu-ratio")
	}
	b.ReportMetric(float64(medianDuration(abs["all on"]).Milliseconds()), "all-on-step-ms")
}

// printStepTable writes the ratios as a Markdown table: median and spread over the rounds.
func printStepTable(w io.Writer, modes []stepMode, wall, cpu map[string][]float64, abs, absCPU map[string][]time.Duration) {
	fmt.Fprintf(w, "\nwhole step (%d calls) through awf-serve, ratio to every accelerator on, %d rounds\n\n", stepCalls, len(wall["all on"]))
	fmt.Fprintln(w, "| mode | step wall p50 | server CPU p50 | wall ratio (min–max) | server CPU ratio (min–max) |\n|---|---|---|---|---|")
	for _, m := range modes {
		ws, cs := slices.Sorted(slices.Values(wall[m.name])), slices.Sorted(slices.Values(cpu[m.name]))
		fmt.Fprintf(w, "| %s | %.0f ms | %.0f ms | %.3f (%.2f–%.2f) | %.3f (%.2f–%.2f) |\n", m.name,
			float64(medianDuration(abs[m.name]).Microseconds())/1000, float64(medianDuration(absCPU[m.name]).Microseconds())/1000, medianOf(ws), ws[0], ws[len(ws)-1], medianOf(cs), cs[0], cs[len(cs)-1])
	}
}

func medianDuration(d []time.Duration) time.Duration { return sorted(slices.Clone(d))[len(d)/2] }

// stepCall is one call of the session.
type stepCall struct {
	tool string
	args json.RawMessage
}

// stepSessionSetup writes the step's root (a 4 KiB file to read, a file to edit, a tree to
// search), a plugins.yaml bridging the fixture MCP server, and the step config; it returns the
// server and the session's calls.
func stepSessionSetup(b *testing.B) (server, []stepCall) {
	root := filepath.Join(b.TempDir(), "root")
	write := func(rel, body string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	read := write("file4k.txt", strings.Repeat(strings.Repeat("y", 63)+"\n", 64))
	edit := write("edit.txt", "alpha\nbeta\n")
	for i := range 60 {
		write(fmt.Sprintf("src/pkg%d/file%d.go", i%6, i), fmt.Sprintf("package pkg\n\n// F%d is a function.\nfunc F%d() int { return %d }\n", i, i, i))
	}
	plugins := write(".awf/plugins.yaml", "plugins:\n  fix:\n    type: mcp\n    command: "+fixtureBin+"\n")
	srv := stepServerAt(b, root, map[string]any{"plugins_file": plugins,
		"plugin_tools": []map[string]any{{"plugin": "fix", "expose": []string{"echo"}}}})
	mk := func(tool string, args map[string]any) stepCall {
		raw, _ := json.Marshal(args)
		return stepCall{tool, raw}
	}
	kinds := [][]stepCall{
		{mk("Read", map[string]any{"file_path": read})},
		{mk("Grep", map[string]any{"pattern": "func F[0-9]+", "path": "src", "output_mode": "content"})},
		{mk("Edit", map[string]any{"file_path": edit, "old_string": "alpha", "new_string": "gamma"}),
			mk("Edit", map[string]any{"file_path": edit, "old_string": "gamma", "new_string": "alpha"})},
		{mk("Bash", map[string]any{"command": "echo step"})},
		{mk("fix_echo", map[string]any{"text": "bridged"})},
	}
	calls := make([]stepCall, 0, stepCalls)
	for i := range stepCalls {
		k := kinds[i%len(kinds)]
		calls = append(calls, k[(i/len(kinds))%len(k)])
	}
	return srv, calls
}

// runStepSession runs one session of calls in mode m and times it.
func runStepSession(ctx context.Context, srv server, m stepMode, calls []stepCall) (stepFigures, error) {
	start := time.Now()
	cmd := srv.cmd()
	cmd.Env = append(cmd.Env, accel.EnvOff+"="+m.off)
	s, err := openSDK(ctx, cmd)
	if err != nil {
		return stepFigures{}, err
	}
	if err := s.listTools(ctx); err != nil {
		s.close()
		return stepFigures{}, err
	}
	for i, c := range calls {
		if _, err := s.call(ctx, c.tool, c.args); err != nil {
			s.close()
			return stepFigures{}, fmt.Errorf("call %d: %w", i, err)
		}
	}
	cpu := serverCPU(s.pid())
	s.close()
	_ = waitExit(cmd)
	return stepFigures{wall: time.Since(start), cpu: cpu}, nil
}

// waitExit waits for the server the client has already closed, if the client did not.
func waitExit(cmd *exec.Cmd) error {
	if cmd.ProcessState != nil || cmd.Process == nil {
		return nil
	}
	_, err := cmd.Process.Wait()
	return err
}
