package activitylog

import (
	"context"
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
	if !strings.Contains(string(line), `"code":"USER.INTENT.SERVER_MISMATCH"`) || !strings.Contains(string(line), `"tool_variant":"call_tool_destructive"`) {
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
