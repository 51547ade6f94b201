#!/bin/sh
# Regenerates the Go code of the plugin protocol. Run from the repository root:
#
#   proto/generate.sh <dir with protoc-gen-go and protoc-gen-go-grpc> [output root]
#
# The protoc plugins must be the versions pinned in tools/go.mod (`make proto` builds them);
# the output root defaults to the repository root, so the code lands in proto/pluginv1/.
# proto/pluginv1/generate_test.go runs this script into a temp dir and fails when the committed
# code differs.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: proto/generate.sh <protoc-plugin-dir> [output-root]" >&2
	exit 2
fi
bindir=$1
out=${2:-.}
command -v protoc >/dev/null 2>&1 || {
	echo "protoc not found: install it (Debian/Ubuntu: apt-get install -y protobuf-compiler)" >&2
	exit 1
}
mkdir -p "$out"
protoc -I proto \
	--plugin=protoc-gen-go="$bindir/protoc-gen-go" \
	--plugin=protoc-gen-go-grpc="$bindir/protoc-gen-go-grpc" \
	--go_out="$out" --go_opt=module=github.com/awf-dev/awf \
	--go-grpc_out="$out" --go-grpc_opt=module=github.com/awf-dev/awf \
	proto/awf/plugin/v1/plugin.proto
