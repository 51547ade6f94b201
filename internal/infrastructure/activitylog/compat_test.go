package activitylog

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// A line written before code and tool_variant existed still reads, and is filed under its
// declared variant; a new line carries both fields in the seed's form and reads back the same.
func TestOldAndNewLines(t *testing.T) {
	old := `{"id":"a1","time":"2026-01-01T00:00:00Z","tool":"Bash","duration_ms":1,"outcome":"success","intent":{"variant":"read","decision":"allow"}}`
	r, err := Decode([]byte(old))
	if err != nil || r.Code != "" || r.ToolVariant != "" || r.Effective() != tool.VariantRead {
		t.Fatalf("old line: %+v, %v", r, err)
	}
	rec := activity.Record{ID: "b2", Time: time.Unix(0, 0).UTC(), Tool: "Bash", Outcome: activity.OutcomeRefused,
		Code: "USER.INTENT.SERVER_MISMATCH", Intent: tool.Intent{Variant: tool.VariantRead}, ToolVariant: tool.VariantDestructive}
	line, err := Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(line), `"code":"USER.INTENT.SERVER_MISMATCH"`) {
		t.Errorf("line: %s", line)
	}
	back, err := Decode(line[:len(line)-1])
	if err != nil || back.ToolVariant != tool.VariantDestructive || back.Code != rec.Code {
		t.Errorf("round trip: %+v %v", back, err)
	}
	if v := toolVariantOf("write"); v != tool.VariantWrite {
		t.Errorf("bare variant read as %q", v)
	}
}

// tool_variant is, as in the intent seed, the variant the call was made through (the read door
// of a call to a destructive tool), and tool_own_variant the tool's own; a line of an awf from
// before tool_own_variant, whose tool_variant was the tool's own, reads as it meant; and
// `awf activity list --intent-type` files each under the stronger of the two.
func TestToolVariantIsTheDoorAndTheOwnVariantHasItsOwnField(t *testing.T) {
	for _, tc := range []struct {
		name         string
		rec          activity.Record
		door, own    string // the fields written; "-" for absent
		readOwn      tool.Variant
		readDeclared tool.Variant
		effective    tool.Variant
	}{
		{name: "read door, destructive tool", rec: activity.Record{Intent: tool.Intent{Variant: tool.VariantRead}, ToolVariant: tool.VariantDestructive},
			door: "call_tool_read", own: "call_tool_destructive", readOwn: tool.VariantDestructive, readDeclared: tool.VariantRead, effective: tool.VariantDestructive},
		{name: "write door, read-only tool", rec: activity.Record{Intent: tool.Intent{Variant: tool.VariantWrite}, ToolVariant: tool.VariantRead},
			door: "call_tool_write", own: "call_tool_read", readOwn: tool.VariantRead, readDeclared: tool.VariantWrite, effective: tool.VariantWrite},
		{name: "unknown tool through a door", rec: activity.Record{Intent: tool.Intent{Variant: tool.VariantWrite}},
			door: "call_tool_write", own: "", readDeclared: tool.VariantWrite, effective: tool.VariantWrite},
		{name: "tool by its own name in split mode", rec: activity.Record{ToolVariant: tool.VariantRead},
			door: "-", own: "call_tool_read", readOwn: tool.VariantRead, effective: tool.VariantRead},
		{name: "no variant at all", rec: activity.Record{}, door: "-", own: "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.rec.ID, tc.rec.Tool, tc.rec.Outcome = "x", "T", activity.OutcomeRefused
			line, err := Encode(tc.rec)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatal(err)
			}
			for key, want := range map[string]string{"tool_variant": tc.door, "tool_own_variant": tc.own} {
				got, ok := m[key]
				if (want == "-") == ok || (ok && got != want) {
					t.Errorf("%s = %v (present %v), want %q in %s", key, got, ok, want, line)
				}
			}
			back, err := Decode(line[:len(line)-1])
			if err != nil || back.ToolVariant != tc.readOwn || back.Intent.Variant != tc.readDeclared || back.Effective() != tc.effective {
				t.Errorf("read back own %q declared %q effective %q (%v); want %q %q %q", back.ToolVariant, back.Intent.Variant, back.Effective(), err, tc.readOwn, tc.readDeclared, tc.effective)
			}
			if !(activity.Filter{IntentType: tc.effective}).Match(back) {
				t.Errorf("--intent-type %s does not match the line read back", tc.effective)
			}
		})
	}
	// Before tool_own_variant, tool_variant held the tool's own variant: such a line still
	// files a read declared on a destructive tool under destructive.
	old := `{"id":"o","time":"2026-01-01T00:00:00Z","tool":"Bash","duration_ms":1,"outcome":"refused","intent":{"variant":"read"},"tool_variant":"call_tool_destructive"}`
	r, err := Decode([]byte(old))
	if err != nil || r.ToolVariant != tool.VariantDestructive || r.Intent.Variant != tool.VariantRead || r.Effective() != tool.VariantDestructive {
		t.Errorf("old line read as own %q declared %q (%v)", r.ToolVariant, r.Intent.Variant, err)
	}
}

func TestAppendMasksSecrets(t *testing.T) {
	secret := "Zq7-longValue/with+Symbols=9kLmN0pQ"
	s := FileStore{Path: filepath.Join(t.TempDir(), FileName), Redactor: redact.New([]string{"X_TOKEN=" + secret})}
	rec := activity.Record{ID: "c3", Tool: "Bash", Outcome: activity.OutcomeError, Error: "tok=" + secret,
		Arguments: map[string]any{"command": "echo " + secret}, Intent: tool.Intent{Reason: secret}}
	if err := s.Append(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.Path)
	if strings.Contains(string(data), secret[:redact.MinRun]) || !strings.Contains(string(data), redact.Mask) {
		t.Errorf("file: %s", data)
	}
}
