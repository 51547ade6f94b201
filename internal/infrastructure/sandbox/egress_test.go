package sandbox

import (
	"slices"
	"testing"
)

// The proxy variables replace inherited ones in both cases and leave the rest alone.
func TestProxyEnv(t *testing.T) {
	got := ProxyEnv([]string{"PATH=/bin", "http_proxy=http://corp:8080", "No_Proxy=*", "ALL_PROXY=socks5://x", "HOME=/h"})
	want := []string{"PATH=/bin", "HOME=/h",
		"HTTP_PROXY=http://127.0.0.1:3128", "http_proxy=http://127.0.0.1:3128",
		"HTTPS_PROXY=http://127.0.0.1:3128", "https_proxy=http://127.0.0.1:3128",
		"ALL_PROXY=socks5h://127.0.0.1:1080", "all_proxy=socks5h://127.0.0.1:1080",
		"NO_PROXY=", "no_proxy="}
	if !slices.Equal(got, want) {
		t.Fatalf("ProxyEnv = %q\nwant %q", got, want)
	}
}
