package sandbox

import "os"

// init runs the helper as soon as this package is initialised, when awf's binary was started
// as the helper. Go initialises packages in import-path order once their dependencies are
// ready, and this package needs only the standard library and x/sys, so it runs before the
// gRPC, OpenTelemetry and protobuf packages of the CLI, whose initialisation (about 10 ms)
// every Bash call would otherwise pay. cmd/awf's main checks the same argument, for a binary
// in which this init ran too late to matter.
func init() {
	if len(os.Args) > 1 && os.Args[1] == HelperArg && os.Getenv(policyEnv) != "" {
		os.Exit(Main(os.Args[2:]))
	}
}
