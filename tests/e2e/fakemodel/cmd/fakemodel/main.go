// Command fakemodel runs the scripted fake model API of package fakemodel by hand, for studying
// what an agent CLI sends:
//
//	FAKEMODEL_DUMP_DIR=/tmp/dump fakemodel -tool 'Read={"file_path":"/tmp/x/a.txt"}' -tool 'Bash={"command":"echo hi"}' -final done
//
// A leading "!" on a tool name (-tool '!Bash={…}') forces the call even when the CLI does not
// offer that tool, as for a tool that the step's intent.allow hides.
//
// It prints the base URL on the first line of stdout, serves until interrupted, then prints one
// line per request it answered.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

// toolFlags collects repeated -tool Name=JSON flags in order.
type toolFlags []fakemodel.ToolCall

func (t *toolFlags) String() string { return fmt.Sprint(*t) }

func (t *toolFlags) Set(v string) error {
	name, args, _ := strings.Cut(v, "=")
	name, force := strings.CutPrefix(name, "!")
	if name == "" {
		return fmt.Errorf("want Name or Name={json args}, got %q", v)
	}
	call := fakemodel.ToolCall{Name: name, Force: force}
	if args != "" {
		if err := json.Unmarshal([]byte(args), &call.Args); err != nil {
			return fmt.Errorf("arguments of %s are not a JSON object: %v", name, err)
		}
	}
	*t = append(*t, call)
	return nil
}

func main() {
	var tools toolFlags
	flag.Var(&tools, "tool", "a tool to call, in order: Name or Name={json args}; !Name forces a call the CLI does not offer (repeatable)")
	final := flag.String("final", "fakemodel: done", "the final answer's opening text")
	flag.Parse()

	srv := fakemodel.New(fakemodel.Script{WantTools: tools, FinalText: *final})
	fmt.Println(srv.URL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	srv.Close()
	fmt.Print(srv.Summary())
}
