// Package otelenv reads whether the OpenTelemetry environment variables ask for traces. It is
// apart from package telemetry, which links the OTLP exporters (gRPC and protobuf), so the slim
// awf-serve binary can ask the question without paying for their package initialisation.
package otelenv

import "strings"

// Enabled reports whether the environment asks for a trace exporter: OTEL_TRACES_EXPORTER set to
// something other than "none", or an OTLP endpoint given. OTEL_SDK_DISABLED=true wins over both.
func Enabled(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	if e := getenv("OTEL_TRACES_EXPORTER"); e != "" {
		return !strings.EqualFold(e, "none")
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// GenAILatest reports whether OTEL_SEMCONV_STABILITY_OPT_IN (a comma-separated list) holds
// gen_ai_latest_experimental: the SDKs' instrumentations then emit only the latest GenAI
// conventions and drop the names they replaced, and so does awf (docs/reference/telemetry.md).
func GenAILatest(getenv func(string) string) bool {
	for v := range strings.SplitSeq(getenv("OTEL_SEMCONV_STABILITY_OPT_IN"), ",") {
		if strings.EqualFold(strings.TrimSpace(v), "gen_ai_latest_experimental") {
			return true
		}
	}
	return false
}

// MetricsEnabled reports whether the environment asks for a metric exporter: only when
// OTEL_METRICS_EXPORTER names one (not "none"), unlike traces, so that a collector set up for
// awf's traces is not sent metrics it did not ask for (docs/design.md, Departures).
// OTEL_SDK_DISABLED=true wins.
func MetricsEnabled(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	e := strings.TrimSpace(getenv("OTEL_METRICS_EXPORTER"))
	return e != "" && !strings.EqualFold(e, "none")
}
