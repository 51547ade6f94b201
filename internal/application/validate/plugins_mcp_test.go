package validate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// pinnedRegistry is pcFakeRegistry with pins: tools in changed differ from the lock.
type pinnedRegistry struct {
	*pcFakeRegistry
	changed map[string]bool
	asked   []string
}

func (p *pinnedRegistry) CheckPins(_ context.Context, plugin string, tools []string) error {
	p.asked = append(p.asked, plugin+":"+strings.Join(tools, ","))
	for _, t := range tools {
		if p.changed[t] {
			return fault.New(fault.UserMCPProxyToolChanged, "plugin %q: tool %q: annotations changed", plugin, t)
		}
	}
	return nil
}

func TestPluginCheckGlobs(t *testing.T) {
	tests := []struct {
		name string
		ops  []string
		want []pcWant
	}{
		{"glob expands", []string{"get", "l*"}, nil},
		{"glob matching nothing", []string{"zz*"}, []pcWant{{fault.UserMCPProxyUnknownOperation, 11, 20, "valid: get, list, put, delete"}}},
		{"glob overlapping a name", []string{"get", "*"}, []pcWant{{fault.UserMCPProxyNameCollision, 11, 30, "exposes \"get\" twice"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pcAssert(t, PluginCheck(pcRegistry())(context.Background(), pcWorkflow(pcAgent("s", false, pcEntry("notes", 10, tt.ops...)))), tt.want)
		})
	}
}

func TestPluginCheckPins(t *testing.T) {
	reg := &pinnedRegistry{pcFakeRegistry: pcRegistry(), changed: map[string]bool{"put": true}}
	w := pcWorkflow(pcAgent("s", false, pcEntry("notes", 10, "get", "p*")), pcAgent("t", false, pcEntry("echo", 20, "echo")))
	pcAssert(t, PluginCheck(reg)(context.Background(), w), []pcWant{{fault.UserMCPProxyToolChanged, 10, 17, "awf plugins lock"}})
	if strings.Join(reg.asked, " ") != "notes:get,put echo:echo" {
		t.Errorf("asked %v", reg.asked)
	}
}

func TestToolNameMapsAndLimits(t *testing.T) {
	if got := ToolName("fs", "read.file/x-azAZ09"); got != "fs_read_file_x-azAZ09" {
		t.Errorf("ToolName = %q", got)
	}
	reg := pcRegistry()
	reg.decls[0].Name = strings.Repeat("e", 60)
	reg.ops[reg.decls[0].Name] = []string{"echo"}
	pcAssert(t, PluginCheck(reg)(context.Background(), pcWorkflow(pcAgent("s", false, pcEntry(reg.decls[0].Name, 10, "echo")))),
		[]pcWant{{fault.UserMCPProxyToolNameTooLong, 10, 17, "shorter"}})
}

func TestToolNameOfExactly64IsAccepted(t *testing.T) {
	reg := pcRegistry()
	name := strings.Repeat("e", 59) // e…e_echo: 64 characters
	reg.decls[0].Name = name
	reg.ops[name] = []string{"echo"}
	pcAssert(t, PluginCheck(reg)(context.Background(), pcWorkflow(pcAgent("s", false, pcEntry(name, 10, "echo")))), nil)
}

type plainPinErr struct{ *pcFakeRegistry }

func (plainPinErr) CheckPins(context.Context, string, []string) error {
	return errors.New("lock unreadable")
}

func TestPluginCheckPinsUncodedError(t *testing.T) {
	reg := plainPinErr{pcRegistry()}
	pcAssert(t, PluginCheck(reg)(context.Background(), pcWorkflow(pcAgent("s", false, pcEntry("echo", 10, "echo")))),
		[]pcWant{{fault.UserMCPProxyToolChanged, 10, 17, "awf plugins lock"}})
}
