package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

func TestEcho(t *testing.T) {
	tests := []struct {
		args    string
		want    string
		wantErr bool
	}{
		{`{"text":"hi"}`, "hi", false},
		{`{"text":"hi","upper":true}`, "HI", false},
		{`{"text":"x","delay_ms":1}`, "x", false},
		{`{"text":"x","delay_ms":-1}`, "", true},
		{`{"text":"x","delay_ms":60001}`, "", true},
	}
	for _, tt := range tests {
		res, err := echo(context.Background(), json.RawMessage(tt.args))
		if err != nil {
			t.Fatalf("echo(%s): %v", tt.args, err)
		}
		if res.IsError != tt.wantErr {
			t.Errorf("echo(%s) IsError = %v (%s)", tt.args, res.IsError, res.ErrorMessage)
		}
		if !tt.wantErr && res.Content[0].Text != tt.want {
			t.Errorf("echo(%s) = %q, want %q", tt.args, res.Content[0].Text, tt.want)
		}
	}
	if _, err := echo(context.Background(), json.RawMessage(`{"text":"x","bogus":1}`)); err == nil {
		t.Error("unknown argument accepted")
	}
}

func TestEchoDelayHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := echo(ctx, json.RawMessage(`{"text":"x","delay_ms":60000}`))
	if err != nil || !res.IsError {
		t.Fatalf("cancelled echo = %+v, %v", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancelled echo returned after %s", d)
	}
}

func TestPluginDeclarationIsValid(t *testing.T) {
	if err := newPlugin().Validate(); err != nil {
		t.Fatal(err)
	}
}
