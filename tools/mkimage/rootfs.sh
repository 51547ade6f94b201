#!/bin/sh
# Assembles the image's root file system in $1 from files of this Debian machine, since no base
# image can be pulled (docs/decisions/0031-release-archives-and-image.md): a static busybox for
# /bin/sh and the usual utilities, git with the libraries it links, CA certificates, a non-root
# user (awf, uid 1000), /workspace. With IMAGE_AGENTS=1 it adds node and the agent CLIs pinned in
# tests/e2e/package.json (installed by tests/e2e/install.sh into $AWF_CACHE), about 1.2 GB.
# `make image` adds awf and awf-serve and packs the directory with tools/mkimage.
set -eu
root="$1"
case "$root" in ""|/) echo "rootfs.sh: give the directory to fill" >&2; exit 1;; esac
rm -rf "$root"
mkdir -p "$root/bin" "$root/etc/ssl/certs" "$root/tmp" "$root/workspace" "$root/home/awf" "$root/usr/local/bin" "$root/usr/lib/git-core" "$root/usr/bin"
chmod 1777 "$root/tmp"

busybox="$(command -v busybox || true)"
if [ -z "$busybox" ] || ldd "$busybox" >/dev/null 2>&1; then  # ldd fails on a static binary
  cache="${AWF_CACHE:-$HOME/.cache/awf}/busybox-static"
  if [ ! -x "$cache/bin/busybox" ]; then
    echo "rootfs.sh: fetching Debian's busybox-static into $cache" >&2
    mkdir -p "$cache" && (cd "$cache" && apt-get download busybox-static >&2 && dpkg-deb -x busybox-static_*.deb .)
  fi
  busybox="$cache/bin/busybox"
fi
cp "$busybox" "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list); do
  [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
ln -s /bin/busybox "$root/usr/bin/env" # scripts' #!/usr/bin/env lines (the agent CLIs')

# copy_with_libs FILE DEST: FILE at DEST in the image, with the shared libraries ldd names.
copy_with_libs() {
  mkdir -p "$root$(dirname "$2")"
  cp -L "$1" "$root$2"
  copy_libs "$1"
}
# copy_libs FILE: the shared libraries ldd names for FILE, at their paths in the image.
copy_libs() {
  ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' | while read -r lib; do
    if [ -e "$root$lib" ]; then continue; fi
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}
command -v git >/dev/null || { echo "rootfs.sh: git is not installed here (apt-get install git)" >&2; exit 1; }
copy_with_libs "$(command -v git)" /usr/bin/git
for helper in git-remote-http git-remote-https; do
  [ -e "/usr/lib/git-core/$helper" ] && copy_with_libs "/usr/lib/git-core/$helper" "/usr/lib/git-core/$helper"
done
[ -d /usr/share/git-core/templates ] && mkdir -p "$root/usr/share/git-core" && cp -r /usr/share/git-core/templates "$root/usr/share/git-core/"
[ -f /etc/ssl/certs/ca-certificates.crt ] && cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"

if [ "${IMAGE_AGENTS:-0}" = 1 ]; then
  clis="$(dirname "$(tests/e2e/install.sh)")"
  copy_with_libs "$(command -v node)" /usr/local/bin/node
  mkdir -p "$root/opt/agent-clis"
  cp -a "$clis" "$root/opt/agent-clis/node_modules"
  # Some CLIs ship native executables (claude's links librt): their libraries too.
  find "$clis" -type f -perm -u+x -size +1k | while read -r f; do
    if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then copy_libs "$f"; fi
  done
  for cli in "$clis"/.bin/*; do
    ln -s "/opt/agent-clis/node_modules/.bin/$(basename "$cli")" "$root/usr/local/bin/$(basename "$cli")"
  done
fi

printf 'root:x:0:0:root:/root:/bin/sh\nawf:x:1000:1000:awf:/home/awf:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
printf 'root:x:0:\nawf:x:1000:\nnogroup:x:65534:\n' >"$root/etc/group"
printf '[safe]\n\tdirectory = /workspace\n' >"$root/etc/gitconfig"
