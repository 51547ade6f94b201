package cli_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// liveFlow prints a line every 300 ms for 2.4 s, each with the time it was printed (ns), then a
// secret from the environment and an escape sequence.
const liveFlow = `name: live
states:
  initial: tick
  tick:
    type: command
    command: 'for i in 1 2 3 4 5 6 7 8; do echo "tick $i $(date +%s%N)"; sleep 0.3; done; echo "key=$LIVE_SERVICE_TOKEN"; printf "\033[2Jcleared\n" >&2'
    on_success: done
  done: {type: terminal}
`

// TestRunStreamsOutputUnderAPty: a command printing a line every 300 ms shows its first line on
// the console within 1 s of printing it, under a terminal (a pty, as a user sees it), not when
// the step ends 2.4 s later; each streamed line is masked and escaped as step output always is.
func TestRunStreamsOutputUnderAPty(t *testing.T) {
	dir := project(t, map[string]string{"live.yaml": liveFlow})
	home, tmp := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, awfBin, "run", "live")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "TMPDIR="+tmp, "LIVE_SERVICE_TOKEN=livetok-Hq71-secret-value", "NO_COLOR=1")
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Fatalf("starting awf under a pty: %v", err)
	}
	defer ptmx.Close()
	var lag time.Duration
	var all strings.Builder
	sc := bufio.NewScanner(ptmx)
	for sc.Scan() {
		line := sc.Text()
		all.WriteString(line + "\n")
		if i := strings.Index(line, "[OUT] tick 1 "); i >= 0 && lag == 0 {
			ns, err := strconv.ParseInt(strings.TrimSpace(line[i+len("[OUT] tick 1 "):]), 10, 64)
			if err != nil {
				t.Fatalf("first line %q: %v", line, err)
			}
			lag = time.Since(time.Unix(0, ns))
		}
	}
	_ = cmd.Wait() // the pty reports EIO once awf has exited
	got := all.String()
	if lag == 0 {
		t.Fatalf("no streamed first line in:\n%s", got)
	}
	t.Logf("first line shown %s after the command printed it", lag)
	if lag > time.Second {
		t.Errorf("first line shown %s after it was printed, want within 1 s:\n%s", lag, got)
	}
	if strings.Contains(got, "livetok-Hq71") || !strings.Contains(got, "[OUT] key=") {
		t.Errorf("the secret is not masked in the streamed line:\n%s", got)
	}
	if strings.Contains(got, "\x1b[2J") || !strings.Contains(got, `[ERR] \x1b[2Jcleared`) {
		t.Errorf("the escape sequence is not shown as text:\n%q", got)
	}
	if strings.Count(got, "tick 8") != 1 {
		t.Errorf("a streamed line is shown again when the step ends:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, ".awf", "runs")); err != nil {
		t.Errorf("no run recorded: %v", err)
	}
}

// TestRunJSONLinesMatchTheirSchema: `awf run --format jsonl` prints one JSON object per event as
// the run goes, each valid against docs/reference/schemas/run-event.json, a command's lines as
// step_output events between its step_started and step_finished, the run_finished last.
func TestRunJSONLinesMatchTheirSchema(t *testing.T) {
	dir := project(t, map[string]string{"j.yaml": `name: j
states:
  initial: each
  each:
    type: for_each
    items: [a, b]
    body: [say]
    on_complete: done
  say: {type: command, command: 'echo "hi {{.loop.Item}}"; echo warn >&2'}
  done: {type: terminal}
`})
	r := awf(t, dir, []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}, "run", "j", "--format", "jsonl")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rs := docSchema(t, "run-event.json")
	var events []string
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		doc := instance(t, "jsonl line", l).(map[string]any)
		if err := rs.Validate(doc); err != nil {
			t.Fatalf("%s does not match run-event.json: %v", l, err)
		}
		ev := doc["event"].(string)
		if ev == "step_output" || ev == "step_started" {
			ev += ":" + doc["within"].(string)
		}
		if ev == "step_output:each[1]" {
			ev += ":" + doc["stream"].(string) + ":" + doc["line"].(string)
		}
		events = append(events, ev)
	}
	got := strings.Join(events, " ")
	want := "run_started step_started: step_started:each[0] step_output:each[0] step_output:each[0] step_finished " +
		"step_started:each[1] step_output:each[1]:stdout:hi b step_output:each[1]:stderr:warn step_finished step_finished run_finished"
	// stdout and stderr are read side by side: their order between them is not fixed.
	alt := strings.Replace(want, "step_output:each[1]:stdout:hi b step_output:each[1]:stderr:warn", "step_output:each[1]:stderr:warn step_output:each[1]:stdout:hi b", 1)
	if got != want && got != alt {
		t.Errorf("events:\n%s\nwant\n%s", got, want)
	}
}
