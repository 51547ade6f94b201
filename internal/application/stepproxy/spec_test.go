package stepproxy

import (
	"context"
	"reflect"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestSpecHidesTheStepsKeyVariable(t *testing.T) {
	svc := newFixture(nil).svc
	tests := []struct {
		name    string
		options map[string]any
		want    []string
	}{
		{"api_key_env", map[string]any{"api_key_env": "MY_KEY", "model": "m"}, []string{"MY_KEY"}},
		{"empty name", map[string]any{"api_key_env": ""}, nil},
		{"not a string", map[string]any{"api_key_env": 3}, nil},
		{"no options", nil, nil},
	}
	for _, tc := range tests {
		st := agentStep("openai_compatible")
		st.Options = tc.options
		if got := svc.Spec(context.Background(), st).HideEnv; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: HideEnv = %v, want %v", tc.name, got, tc.want)
		}
		// The same holds for a step without mcp_proxy (awf call --workflow --step).
		st.Proxy = nil
		if got := svc.Spec(context.Background(), st).HideEnv; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s without mcp_proxy: HideEnv = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSpecHandsTheStepSpanToTheProxy(t *testing.T) {
	svc := newFixture(nil).svc
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID:    trace.TraceID{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c},
		SpanID:     trace.SpanID{0xb7, 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x31},
		TraceFlags: trace.FlagsSampled,
	})
	ctx := trace.ContextWithSpanContext(context.Background(), sc)
	if got := svc.Spec(ctx, agentStep("claude")).Traceparent; got != "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" {
		t.Fatalf("traceparent %q", got)
	}
	if got := svc.Spec(context.Background(), agentStep("claude")).Traceparent; got != "" {
		t.Fatalf("traceparent without a span %q", got)
	}
}

func TestSpecForwardsOnlyOTelVariables(t *testing.T) {
	svc := newFixture(nil).svc
	if got := svc.Spec(context.Background(), agentStep("claude")).OTelEnv; got != nil {
		t.Fatalf("OTelEnv without an environment %v", got)
	}
	svc.Env = env{"HOME=/h", "OTEL_EXPORTER_OTLP_ENDPOINT=http://c:4318", "OTEL_SERVICE_NAME=a=b", "MY_OTEL_X=1", "BROKEN"}
	want := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SERVICE_NAME": "a=b"}
	if got := svc.Spec(context.Background(), agentStep("claude")).OTelEnv; !reflect.DeepEqual(got, want) {
		t.Fatalf("OTelEnv %v", got)
	}
	svc.Env = env{"HOME=/h"}
	if got := svc.Spec(context.Background(), agentStep("claude")).OTelEnv; got != nil {
		t.Fatalf("OTelEnv without OTEL_ variables %v", got)
	}
}

func TestSpecFromTheStepsProxyBlock(t *testing.T) {
	svc := newFixture(nil).svc
	st := agentStep("claude")
	st.Proxy.InterceptBuiltins = false
	st.Proxy.Intent = workflow.IntentSettings{Split: true, Allow: []tool.Variant{tool.VariantRead}, RequireDeclaration: true}
	st.Proxy.EnvPassthrough = []string{"GITHUB_TOKEN"}
	got := svc.Spec(context.Background(), st)
	want := toolset.Spec{
		EnvPassthrough: []string{"GITHUB_TOKEN"},
		Root:           "/work/repo", Builtins: false,
		PluginTools:  []toolset.PluginTools{{Plugin: "notes", Expose: []string{"get"}}},
		Intent:       toolset.Intent{Split: true, Allow: []tool.Variant{tool.VariantRead}, Strict: false, RequireDeclaration: true},
		ActivityFile: "/x/activity.jsonl", LogFile: "/x/run.log", RunID: "r1", Step: "review", PluginsFile: "/p/plugins.yaml",
		Sandbox: toolset.DefaultSandbox(),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("spec\n%+v\nwant\n%+v", got, want)
	}
	// intent.ask and approval_timeout reach the proxy, which holds calls in the run's approvals/.
	asked := st
	asked.Proxy = new(*st.Proxy)
	asked.Proxy.Intent.Ask = []tool.Variant{tool.VariantRead}
	asked.Proxy.Intent.ApprovalTimeout = 2 * time.Second
	a := svc.Spec(context.Background(), asked)
	if !reflect.DeepEqual(a.Intent.Ask, []tool.Variant{tool.VariantRead}) || a.Intent.ApprovalTimeout != 2*time.Second || a.ApprovalsDir != "/x/approvals" {
		t.Fatalf("ask spec = %+v, approvals dir %q", a.Intent, a.ApprovalsDir)
	}
	if got.ApprovalsDir != "" {
		t.Fatalf("a step without ask has an approvals dir %q", got.ApprovalsDir)
	}
	// The spec owns its lists: the workflow cannot change a prepared proxy.
	st.Proxy.Intent.Allow[0] = tool.VariantDestructive
	st.Proxy.PluginTools[0].Expose[0] = "put"
	if got.Intent.Allow[0] != tool.VariantRead || got.PluginTools[0].Expose[0] != "get" {
		t.Fatalf("spec shares the workflow's lists: %+v", got)
	}
	// An empty allow list allows nothing; it must not become "all".
	st.Proxy.Intent.Allow = []tool.Variant{}
	if a := svc.Spec(context.Background(), st).Intent.Allow; a == nil || len(a) != 0 {
		t.Fatalf("empty allow became %#v", a)
	}
	st.Proxy.Intent.StrictServerValidation = true
	if !svc.Spec(context.Background(), st).Intent.Strict {
		t.Fatal("strict_server_validation lost")
	}
	st.Proxy = nil
	if d := svc.Spec(context.Background(), st); !d.Builtins || !reflect.DeepEqual(d.Intent, toolset.DefaultIntent()) || d.PluginTools != nil {
		t.Fatalf("defaults without mcp_proxy %+v", d)
	}
}
