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
