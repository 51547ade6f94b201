package logging

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/domain/redact"
)

const secret = `Zq7-longValue/with+Symbols="9kLmN0pQ`

func TestEveryFieldIsMasked(t *testing.T) {
	red := redact.New([]string{"DEPLOY_TOKEN=" + secret})
	file := filepath.Join(t.TempDir(), "run.log")
	var console bytes.Buffer
	logger, closeLog, err := New(Options{Console: &console, ConsoleLevel: zapcore.DebugLevel, File: file, Redactor: red})
	if err != nil {
		t.Fatal(err)
	}
	gh := "ghp_" + strings.Repeat("A1b2", 9)
	logger.With(zap.String("ctx", secret)).Warn("tool call "+secret,
		zap.String("error", "tok="+secret[:12]), zap.Error(errors.New("failed with "+secret)),
		zap.Any("args", map[string]any{"k": []any{secret, gh}}), zap.Strings("list", []string{secret}),
		zap.ByteString("raw", []byte(secret)), zap.String("plain", "kept"))
	logger.Info("clean line", zap.String("tool", "Read"))
	if err := closeLog(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"file": string(data), "console": console.String()} {
		for i := 0; i+redact.MinRun <= len(secret); i++ {
			if strings.Contains(out, secret[i:i+redact.MinRun]) {
				t.Fatalf("%s leaks %q:\n%s", name, secret[i:i+redact.MinRun], out)
			}
		}
		if strings.Contains(out, gh) || !strings.Contains(out, "kept") || !strings.Contains(out, "clean line") {
			t.Errorf("%s:\n%s", name, out)
		}
	}
	// Every file line is still JSON.
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("not JSON after masking: %s (%v)", line, err)
		}
	}
}

func TestNoRedactorNoWrapper(t *testing.T) {
	enc := zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
	if withRedactor(enc, nil) != enc {
		t.Error("a nil redactor must leave the encoder as it is")
	}
	if _, ok := withRedactor(enc, redact.New(nil)).Clone().(redactingEncoder); !ok {
		t.Error("Clone dropped the wrapper")
	}
}
