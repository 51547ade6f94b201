package plugins

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

// helperEnv makes the test binary act as an awf process that starts a plugin and then waits to
// be killed (see TestPluginDiesWithItsHost).
const helperEnv = "AWF_PLUGINS_TEST_HOST"

func TestMain(m *testing.M) {
	if file := os.Getenv(helperEnv); file != "" {
		os.Exit(helperHost(file))
	}
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}

// helperHost starts plugin "echo" of the plugins.yaml at file, prints its pid and sleeps; it
// never closes the host, as an awf killed with SIGKILL would not.
func helperHost(file string) int {
	h := New(Options{File: file})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := h.Operations(ctx, "echo"); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	st, _ := h.Status("echo")
	fmt.Println(st.PID)
	time.Sleep(time.Minute)
	return 0
}
