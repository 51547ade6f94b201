#!/usr/bin/env bash
# The action's install step: download awf's release archive for this runner, check it against
# the release's SHA256SUMS, unpack awf and awf-serve side by side and put them on PATH.
# AWF_VERSION is a tag or "latest"; AWF_DOWNLOAD_BASE overrides where the files come from (a test
# points it at a local `make dist` output through file://).
set -euo pipefail
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in
  x86_64|amd64) arch=amd64 ;;
  aarch64|arm64) arch=arm64 ;;
  *) echo "::error title=awf install::no awf release for $(uname -m); awf is built for amd64 and arm64" >&2; exit 1 ;;
esac
case "$os" in linux|darwin) ;; *) echo "::error title=awf install::no awf release for $os; use a Linux or macOS runner" >&2; exit 1 ;; esac
name="awf_${os}_${arch}"
version="${AWF_VERSION:-latest}"
case "$version" in *[!A-Za-z0-9._-]*|"") echo "::error title=awf install::version must be a release tag such as v0.4.0, or latest" >&2; exit 1 ;; esac
repo="${AWF_REPOSITORY:-awf-dev/awf}"
if [ -n "${AWF_DOWNLOAD_BASE:-}" ]; then
  base="$AWF_DOWNLOAD_BASE"
elif [ "$version" = latest ]; then
  base="https://github.com/$repo/releases/latest/download"
else
  base="https://github.com/$repo/releases/download/$version"
fi
work="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/awf-install.XXXXXX")"
curl -fsSL --retry 3 -o "$work/$name.tar.gz" "$base/$name.tar.gz"
curl -fsSL --retry 3 -o "$work/SHA256SUMS" "$base/SHA256SUMS"
if command -v sha256sum >/dev/null; then sum=(sha256sum); else sum=(shasum -a 256); fi
if ! (cd "$work" && grep " $name.tar.gz\$" SHA256SUMS | "${sum[@]}" -c - >/dev/null); then
  echo "::error title=awf install::$name.tar.gz does not match the release's SHA256SUMS; not installing it" >&2
  exit 1
fi
tar -xzf "$work/$name.tar.gz" -C "$work"
dest="${RUNNER_TEMP:-$work}/awf-bin"
mkdir -p "$dest"
cp "$work/$name/awf" "$work/$name/awf-serve" "$dest/"
echo "$dest" >>"${GITHUB_PATH:-/dev/null}"
"$dest/awf" version
