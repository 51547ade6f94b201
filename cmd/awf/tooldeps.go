package main

import (
	"context"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/proxy"
	"github.com/awf-dev/awf/internal/infrastructure/proxyserve"
)

// toolDeps builds what proxyserve needs beyond the config: today the logger; plugin providers
// join here once plugins are wired.
func toolDeps(_ context.Context, _ proxy.ServeConfig, logger *zap.Logger) (proxyserve.Deps, error) {
	return proxyserve.Deps{Logger: logger, Version: version}, nil
}
