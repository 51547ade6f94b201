package otelenv

import "testing"

func TestEnabled(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://x"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "console"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}, false},
	}
	for _, tc := range tests {
		if got := Enabled(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("Enabled(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestGenAILatest(t *testing.T) {
	tests := []struct {
		val  string
		want bool
	}{
		{"", false},
		{"http", false},
		{"gen_ai_latest_experimental", true},
		{"http/dup, gen_ai_latest_experimental", true},
		{"GEN_AI_LATEST_EXPERIMENTAL", true},
		{"gen_ai_latest_experimental_not", false},
	}
	for _, tc := range tests {
		got := GenAILatest(func(k string) string {
			if k == "OTEL_SEMCONV_STABILITY_OPT_IN" {
				return tc.val
			}
			return ""
		})
		if got != tc.want {
			t.Errorf("GenAILatest(%q) = %v, want %v", tc.val, got, tc.want)
		}
	}
}

func TestMetricsEnabled(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, false}, // traces only
		{map[string]string{"OTEL_METRICS_EXPORTER": "otlp"}, true},
		{map[string]string{"OTEL_METRICS_EXPORTER": "none"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_METRICS_EXPORTER": "otlp"}, false},
	}
	for _, tc := range tests {
		if got := MetricsEnabled(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("MetricsEnabled(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
}
