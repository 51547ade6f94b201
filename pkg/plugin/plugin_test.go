package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/awf-dev/awf/proto/pluginv1"
)

func okHandler(context.Context, json.RawMessage) (Result, error) { return Text("ok"), nil }

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		ops  []Operation
		want []string // substrings of the error; none → valid
	}{
		{"valid", []Operation{{Name: "get", Handler: okHandler, InputSchema: `{"type":"object"}`}, {Name: "put-2_x", Handler: okHandler}}, nil},
		{"bad name", []Operation{{Name: "has space", Handler: okHandler}}, []string{`"has space"`, "name must be"}},
		{"empty name", []Operation{{Name: "", Handler: okHandler}}, []string{"name must be"}},
		{"duplicate", []Operation{{Name: "a", Handler: okHandler}, {Name: "a", Handler: okHandler}}, []string{"used twice"}},
		{"nil handler", []Operation{{Name: "a"}}, []string{"Handler is nil"}},
		{"schema not JSON", []Operation{{Name: "a", Handler: okHandler, InputSchema: `{`}}, []string{"not a JSON object"}},
		{"schema not object type", []Operation{{Name: "a", Handler: okHandler, InputSchema: `{"type":"string"}`}}, []string{`"type": "object"`}},
		{"schema array", []Operation{{Name: "a", Handler: okHandler, InputSchema: `[]`}}, []string{"not a JSON object"}},
		{"all problems at once", []Operation{{Name: "", Handler: okHandler}, {Name: "b", InputSchema: "x"}}, []string{"#1", "#2", "Handler is nil", "InputSchema"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := (&Plugin{Name: "p", Operations: tt.ops}).Validate()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Validate accepted an invalid plugin")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	if err := (*Plugin)(nil).Validate(); err == nil {
		t.Error("nil plugin validated")
	}
}

func TestDecodeArgs(t *testing.T) {
	type in struct {
		Text string `json:"text"`
	}
	tests := []struct {
		args    string
		want    string
		wantErr string
	}{
		{`{"text":"hi"}`, "hi", ""},
		{``, "", ""},
		{`  `, "", ""},
		{`{"text":"hi","extra":1}`, "", "unknown field"},
		{`{"text":1}`, "", "cannot unmarshal"},
		{`{"text":"a"} {}`, "", "data after"},
	}
	for _, tt := range tests {
		var v in
		err := DecodeArgs(json.RawMessage(tt.args), &v)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("DecodeArgs(%q) error = %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || v.Text != tt.want {
			t.Errorf("DecodeArgs(%q) = %q, %v; want %q", tt.args, v.Text, err, tt.want)
		}
	}
}

func TestResultHelpers(t *testing.T) {
	if r := Text("x"); r.IsError || len(r.Content) != 1 || r.Content[0].Text != "x" {
		t.Errorf("Text = %+v", r)
	}
	r, err := JSON(map[string]int{"a": 1})
	if err != nil || string(r.Content[0].JSON) != `{"a":1}` {
		t.Errorf("JSON = %+v, %v", r, err)
	}
	if _, err := JSON(make(chan int)); err == nil {
		t.Error("JSON of a channel succeeded")
	}
	if r := Errorf("no %s", "key"); !r.IsError || r.ErrorMessage != "no key" {
		t.Errorf("Errorf = %+v", r)
	}
}

func testServer() *server {
	p := &Plugin{
		Name: "t", Version: "1.2.3", Description: "test",
		Operations: []Operation{
			{Name: "text", Description: "d", InputSchema: `{"type":"object"}`, OutputDescription: "out",
				Annotations: Annotations{Title: "T", ReadOnly: Bool(true), Destructive: Bool(false)}, Handler: okHandler},
			{Name: "json", Handler: func(context.Context, json.RawMessage) (Result, error) { return JSON([]int{1, 2}) }},
			{Name: "fail", Handler: func(context.Context, json.RawMessage) (Result, error) { return Errorf("missing key k"), nil }},
			{Name: "err", Handler: func(context.Context, json.RawMessage) (Result, error) { return Result{}, errors.New("disk full") }},
			{Name: "panic", Handler: func(context.Context, json.RawMessage) (Result, error) { panic("boom") }},
			{Name: "badjson", Handler: func(context.Context, json.RawMessage) (Result, error) {
				return Result{Content: []Content{{JSON: json.RawMessage("{")}}}, nil
			}},
			{Name: "args", Handler: func(_ context.Context, a json.RawMessage) (Result, error) { return Text(string(a)), nil }},
		},
		Init: func(_ context.Context, cfg json.RawMessage) error {
			if strings.Contains(string(cfg), "bad") {
				return errors.New("config.dir must be a string")
			}
			return nil
		},
	}
	return newServer(p, hclog.NewNullLogger())
}

func TestServerExecute(t *testing.T) {
	s := testServer()
	ctx := context.Background()
	tests := []struct {
		op, args  string
		isErr     bool
		msg, text string
		json      string
		code      codes.Code
	}{
		{op: "text", text: "ok"},
		{op: "json", json: "[1,2]"},
		{op: "fail", isErr: true, msg: "missing key k"},
		{op: "err", isErr: true, msg: "disk full"},
		{op: "panic", isErr: true, msg: "internal error in the plugin (boom)"},
		{op: "badjson", isErr: true, msg: "not valid JSON"},
		{op: "args", args: "", text: "{}"},
		{op: "args", args: `{"a":[1]}`, text: `{"a":[1]}`},
		{op: "args", args: `{`, code: codes.InvalidArgument},
		{op: "nope", code: codes.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.op+tt.args, func(t *testing.T) {
			res, err := s.Execute(ctx, &pluginv1.ExecuteRequest{Operation: tt.op, ArgumentsJson: tt.args})
			if tt.code != codes.OK {
				if status.Code(err) != tt.code {
					t.Fatalf("Execute error = %v, want code %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if res.GetIsError() != tt.isErr || !strings.Contains(res.GetErrorMessage(), tt.msg) {
				t.Fatalf("Execute = %+v, want isError=%v msg~%q", res, tt.isErr, tt.msg)
			}
			if tt.text != "" && (len(res.Content) != 1 || res.Content[0].GetText() != tt.text) {
				t.Errorf("content = %v, want text %q", res.Content, tt.text)
			}
			if tt.json != "" && (len(res.Content) != 1 || res.Content[0].GetJson() != tt.json) {
				t.Errorf("content = %v, want json %q", res.Content, tt.json)
			}
		})
	}
}

func TestServerInfoInitList(t *testing.T) {
	s := testServer()
	ctx := context.Background()
	info, err := s.Info(ctx, &pluginv1.InfoRequest{})
	if err != nil || info.Name != "t" || info.Version != "1.2.3" || info.Description != "test" {
		t.Errorf("Info = %+v, %v", info, err)
	}
	if _, err := s.Init(ctx, &pluginv1.InitRequest{ConfigJson: `{"dir":"x"}`}); err != nil {
		t.Errorf("Init: %v", err)
	}
	if _, err := s.Init(ctx, &pluginv1.InitRequest{}); err != nil {
		t.Errorf("Init with no config: %v", err)
	}
	_, err = s.Init(ctx, &pluginv1.InitRequest{ConfigJson: `{"dir":"bad"}`})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "config.dir") {
		t.Errorf("Init with a rejected config = %v", err)
	}
	if _, err := s.Init(ctx, &pluginv1.InitRequest{ConfigJson: `{`}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("Init with invalid JSON = %v", err)
	}
	list, err := s.ListOperations(ctx, &pluginv1.ListOperationsRequest{})
	if err != nil || len(list.Operations) != 7 {
		t.Fatalf("ListOperations = %v, %v", list, err)
	}
	op := list.Operations[0]
	a := op.GetAnnotations()
	if op.Name != "text" || op.Description != "d" || op.InputSchemaJson != `{"type":"object"}` || op.OutputDescription != "out" || a.GetTitle() != "T" {
		t.Errorf("operation = %+v", op)
	}
	if a.ReadOnly == nil || !*a.ReadOnly || a.Destructive == nil || *a.Destructive || a.Idempotent != nil || a.OpenWorld != nil {
		t.Errorf("annotations lost the set/unset distinction: %+v", a)
	}
	if _, err := s.Shutdown(ctx, &pluginv1.ShutdownRequest{}); err != nil {
		t.Errorf("Shutdown without hook: %v", err)
	}
}
