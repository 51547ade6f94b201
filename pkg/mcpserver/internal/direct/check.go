package direct

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// knownProtocols are the protocol versions the direct path was written against: the go-sdk's
// SupportedProtocolVersions when this package last followed it. A newer SDK that speaks another
// version may answer differently; the direct path then stands aside.
var knownProtocols = []string{ModernProtocol, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Check reports whether the go-sdk linked still answers as the direct path writes: the protocol
// versions it speaks, a text result's JSON and where resultType goes in it. The path writes
// answers in place of the SDK, so a change there would make it answer differently; until Check
// has passed, the path and its wire shortcuts stand aside and the SDK answers. The verdict is
// computed once per process; NewServer starts it in the background, since it costs about half
// a millisecond that a server's start-up should not wait for.
func Check() error { return checked() }

// Passed reports, without waiting, whether Check has run and passed.
func Passed() bool { return checkState.Load() == checkPassed }

const (
	checkPending int32 = iota
	checkPassed
	checkFailed
)

var (
	checkState atomic.Int32
	checked    = sync.OnceValue(func() error {
		err := check()
		if err != nil {
			checkState.Store(checkFailed)
		} else {
			checkState.Store(checkPassed)
		}
		return err
	})
)

func check() error {
	for _, v := range mcp.SupportedProtocolVersions() {
		if !slices.Contains(knownProtocols, v) {
			return fmt.Errorf("the MCP SDK speaks protocol version %s, which the direct path does not know", v)
		}
	}
	impl := &mcp.Implementation{Name: "check<&>", Version: "1"}
	meta, _ := json.Marshal(map[string]any{mcp.MetaKeyServerInfo: impl})
	texts := []string{"\xff", "a<b>&\u2028\"\\\n\x01 é", ""}
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{}}
	for _, t := range texts {
		res.Content = append(res.Content, &mcp.TextContent{Text: t})
	}
	res.SetMeta(map[string]any{mcp.MetaKeyServerInfo: impl})
	sdk, err := res.MarshalJSON()
	if err != nil {
		return fmt.Errorf("the MCP SDK cannot encode a text result: %v", err)
	}
	if own := AppendTextResult(nil, texts, true, true, false, meta); !bytes.Equal(own, sdk) {
		return fmt.Errorf("the MCP SDK encodes a text result as %s, the direct path as %s", sdk, own)
	}
	// A result the SDK decoded keeps its resultType and writes it last: what sdkAnswer appends.
	// (Valid UTF-8 only: decoding replaces an invalid byte.)
	withType := AppendTextResult(nil, texts[1:], true, true, true, meta)
	var decoded mcp.CallToolResult
	if err := json.Unmarshal(withType, &decoded); err != nil {
		return fmt.Errorf("the MCP SDK cannot decode a result with resultType: %v", err)
	}
	if again, err := decoded.MarshalJSON(); err != nil || !bytes.Equal(again, withType) {
		return fmt.Errorf("the MCP SDK writes resultType otherwise than the direct path: %s", again)
	}
	return nil
}
