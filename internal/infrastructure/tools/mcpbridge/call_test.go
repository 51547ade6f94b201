package mcpbridge

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/tool"
)

//lint:file-ignore SA1019 MCP logging is deprecated by SEP-2577 but still what servers send.

// Each MCP log level lands at the matching zap level, tagged by the server's logger.
func TestServerLogLevels(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	m := &Server{log: zap.New(core).With(zap.String("plugin", "p"))}
	for _, lv := range []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"} {
		m.serverLog(&mcp.LoggingMessageParams{Level: lv, Data: "d-" + string(lv)})
	}
	m.serverLog(&mcp.LoggingMessageParams{Level: "info", Logger: "named", Data: "x"})
	m.serverLog(nil)
	want := []zapcore.Level{zapcore.DebugLevel, zapcore.InfoLevel, zapcore.InfoLevel, zapcore.WarnLevel, zapcore.ErrorLevel, zapcore.ErrorLevel, zapcore.ErrorLevel, zapcore.ErrorLevel, zapcore.InfoLevel}
	all := logs.All()
	if len(all) != len(want) {
		t.Fatalf("%d lines, want %d", len(all), len(want))
	}
	for i, e := range all {
		if e.Level != want[i] || e.ContextMap()["plugin"] != "p" {
			t.Errorf("line %d = %v %v", i, e.Level, e.ContextMap())
		}
	}
	if all[8].ContextMap()["logger"] != "named" || all[0].ContextMap()["mcp_level"] != "debug" {
		t.Errorf("fields = %v / %v", all[8].ContextMap(), all[0].ContextMap())
	}
	if _, ok := all[1].ContextMap()["logger"]; ok {
		t.Error("an unnamed server logger was logged")
	}
}

func TestProgressRoutes(t *testing.T) {
	var p progressRoutes
	var got []tool.Progress
	tok, done := p.open("fix", func(pr tool.Progress) { got = append(got, pr) })
	tok2, done2 := p.open("fix", func(tool.Progress) { t.Error("the other call got progress") })
	defer done2()
	if tok == tok2 || tok != "awf-fix-1" {
		t.Fatalf("tokens %q %q", tok, tok2)
	}
	p.deliver(&mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 4, Message: "m"})
	p.deliver(&mcp.ProgressNotificationParams{ProgressToken: 1.0, Progress: 9})          // not a token awf gave
	p.deliver(&mcp.ProgressNotificationParams{ProgressToken: "awf-fix-99", Progress: 9}) // unknown
	p.deliver(nil)
	raw, _ := json.Marshal(map[string]any{"progressToken": tok, "progress": 2})
	p.deliverRaw(raw)
	p.deliverRaw(json.RawMessage(`{"progressToken":`))
	done()
	p.deliver(&mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 3}) // after the call
	want := []tool.Progress{{Progress: 1, Total: 4, Message: "m"}, {Progress: 2}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("delivered = %+v", got)
	}
}
