package main

import (
	"context"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/proxy"
	"github.com/awf-dev/awf/internal/infrastructure/proxyserve"
)

// toolDeps builds what proxyserve needs beyond the config: the logger and the plugin tool
// providers of cfg.plugin_tools (their processes are owned, and stopped, by the router).
func toolDeps(_ context.Context, cfg proxy.ServeConfig, logger *zap.Logger) (proxyserve.Deps, error) {
	return proxyserve.Deps{Logger: logger, Version: version, Providers: pluginProviders(cfg, logger)}, nil
}
