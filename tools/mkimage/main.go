// Command mkimage packs a root file system directory into an OCI image archive (an OCI image
// layout in a tar, which `podman load` and `skopeo copy oci-archive:` read) with
// go-containerregistry, so `make image` needs no Docker daemon, no base image and no registry
// (docs/decisions/0031-release-archives-and-image.md). The image runs as the non-root user awf
// (uid 1000) in /workspace; files are owned by root except /workspace and /home/awf.
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// userID owns the directories the non-root user writes.
const userID = 1000

var userDirs = map[string]bool{"workspace": true, "home/awf": true}

func main() {
	root := flag.String("root", "", "root file system directory to pack")
	out := flag.String("o", "", "OCI archive to write")
	tag := flag.String("tag", "localhost/awf:dev", "image name recorded in the archive")
	version := flag.String("version", "dev", "org.opencontainers.image.version label")
	revision := flag.String("revision", "", "org.opencontainers.image.revision label")
	flag.Parse()
	if *root == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: mkimage -root DIR -o FILE.tar [-tag NAME] [-version V] [-revision SHA]")
		os.Exit(2)
	}
	if err := run(*root, *out, *tag, *version, *revision); err != nil {
		fmt.Fprintln(os.Stderr, "mkimage:", err)
		os.Exit(1)
	}
}

func run(root, out, tag, version, revision string) error {
	layerTar, err := tarTree(root)
	if err != nil {
		return err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return err
	}
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layer)
	if err != nil {
		return err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.ConfigFile(img, configFile(img, version, revision))
	if err != nil {
		return err
	}
	return writeArchive(img, out, tag)
}

// configFile is the runtime configuration: user awf, /workspace, awf as the entry point.
func configFile(img v1.Image, version, revision string) *v1.ConfigFile {
	cf, _ := img.ConfigFile()
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS = "amd64", "linux"
	cf.Created = v1.Time{Time: time.Unix(0, 0).UTC()}
	cf.Config = v1.Config{
		User:       fmt.Sprintf("%d:%d", userID, userID),
		WorkingDir: "/workspace",
		Env:        []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/awf", "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"},
		Entrypoint: []string{"/usr/local/bin/awf"},
		Cmd:        []string{"--help"},
		Labels: map[string]string{
			"org.opencontainers.image.title":    "awf",
			"org.opencontainers.image.version":  version,
			"org.opencontainers.image.revision": revision,
		},
	}
	return cf
}

// writeArchive writes img as an OCI image layout in a temp directory and tars that into out.
func writeArchive(img v1.Image, out, tag string) error {
	dir, err := os.MkdirTemp("", "mkimage-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": tag})); err != nil {
		return err
	}
	data, err := tarDir(dir)
	if err != nil {
		return err
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// tarTree is the image's one layer: every file under root, in name order, with fixed times and
// owners, so the same files give the same layer digest.
func tarTree(root string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := addFile(tw, root, p); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func addFile(tw *tar.Writer, root, p string) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	link := ""
	if fi.Mode()&fs.ModeSymlink != 0 {
		if link, err = os.Readlink(p); err != nil {
			return err
		}
	}
	hdr, err := tar.FileInfoHeader(fi, link)
	if err != nil {
		return err
	}
	rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
	hdr.Name = rel
	if fi.IsDir() {
		hdr.Name += "/"
	}
	hdr.ModTime, hdr.AccessTime, hdr.ChangeTime = time.Unix(0, 0), time.Time{}, time.Time{}
	hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "", ""
	if userDirs[rel] {
		hdr.Uid, hdr.Gid = userID, userID
	}
	hdr.Format = tar.FormatPAX
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	_, err = io.Copy(tw, f)
	return err
}

// tarDir tars an OCI layout directory as an oci-archive.
func tarDir(dir string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		return addFile(tw, dir, p)
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
