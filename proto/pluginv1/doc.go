// Package pluginv1 is the generated Go code of the awf plugin protocol (awf.plugin.v1, defined
// in proto/awf/plugin/v1/plugin.proto). It is committed so that building awf needs no protoc;
// `make proto` regenerates it and generate_test.go fails when the committed code is stale.
//
// Plugin authors should use github.com/awf-dev/awf/pkg/plugin rather than this package.
package pluginv1
