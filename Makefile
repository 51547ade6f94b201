# awf — developer targets. `make demo` runs the main job offline; `make test` runs the tests.
GO        ?= go
BIN       := bin
AWF       := $(BIN)/awf
TOOLS     := $(BIN)/tools
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
FUZZTIME  ?= 10s
BENCHTIME ?= 1s

.PHONY: all build dist image plugins demo-hello proto test test-race test-unit lint lint-arch vet staticcheck bench fuzz mutate refcompare demo demo-review clean tools

all: build

build: ## build bin/awf and bin/awf-serve, the slim MCP server agent CLIs spawn for most steps (static: a cgo build is dynamically linked, and every sandboxed Bash call, which re-executes awf, pays ~1 ms of loading libc)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(AWF) ./cmd/awf
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/awf-serve ./cmd/awf-serve

test: lint-arch vet build ## architecture rules, vet, and every test (unit, integration, e2e with the real CLIs)
	$(GO) test -count=1 -timeout 20m ./...

test-race: build ## every Go test under the race detector (the e2e CLI runs are in `make test`)
	$(GO) test -race -count=1 $$($(GO) list ./... | grep -v /tests/e2e)

vet:
	$(GO) vet ./...

lint: vet staticcheck ## go vet + staticcheck (pinned in tools/go.mod)

$(TOOLS)/staticcheck: tools/go.mod tools/go.sum
	cd tools && $(GO) build -o ../$(TOOLS)/staticcheck honnef.co/go/tools/cmd/staticcheck

staticcheck: $(TOOLS)/staticcheck
	$(TOOLS)/staticcheck ./...

lint-arch: ## layer rules of docs/design.md#layers (go-arch-lint, pinned in tools/go.mod)
	cd tools && $(GO) tool go-arch-lint check --project-path .. >/dev/null 2>&1 || \
		(cd tools && $(GO) tool go-arch-lint check --project-path ..; exit 1)
	@echo "lint-arch: OK"

bench: build ## benchmarks; figures go in closing notes
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

$(TOOLS)/gremlins: tools/go.mod tools/go.sum
	cd tools && $(GO) build -o ../$(TOOLS)/gremlins github.com/go-gremlins/gremlins/cmd/gremlins

MUTATE_PKGS ?= ./internal/domain/... ./internal/application/...

mutate: $(TOOLS)/gremlins ## mutation testing (gremlins, pinned in tools/go.mod), one package at a time; fails under 90 % efficacy or 85 % mutator coverage
	@sh tools/mutate.sh $(TOOLS)/gremlins $$($(GO) list -f '{{.Dir}}' $(MUTATE_PKGS) | sed 's|^$(CURDIR)/|./|')

REF      ?= /tmp/ref/awf-ref
FIXTURES ?= /tmp/ref/src/tests/fixtures/workflows

refcompare: build ## the reference awf's fixture workflows through both binaries (REF=<reference binary> FIXTURES=<its tests/fixtures/workflows>)
	cd tools && $(GO) run ./refcompare -ref $(REF) -awf ../$(AWF) -fixtures $(FIXTURES) -inputs refcompare/inputs.json

fuzz: ## each fuzz target for FUZZTIME (default 10s; use FUZZTIME=5m for a real session)
	@set -e; for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5x $$pkg; \
		done; \
	done

DIST      ?= $(BIN)/dist
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
COMMIT    := $(shell git rev-parse HEAD 2>/dev/null)
# Archives keep the same name from release to release (awf_<os>_<arch>.tar.gz), so a download
# URL needs only the tag; the version is inside (`awf version`). See docs/decisions/0031-release-archives-and-image.md.
DIST_LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -buildid=

$(TOOLS)/cyclonedx-gomod: tools/go.mod tools/go.sum
	cd tools && $(GO) build -o ../$(TOOLS)/cyclonedx-gomod github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod

dist: $(TOOLS)/cyclonedx-gomod ## static release archives for $(PLATFORMS) in $(DIST)/, with SHA256SUMS and CycloneDX SBOMs
	rm -rf $(DIST) && mkdir -p $(DIST)
	@set -e; for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; name=awf_$${os}_$${arch}; dir=$(DIST)/$$name; mkdir -p $$dir; \
		echo "dist: $$name"; \
		for cmd in awf awf-serve; do \
			CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(DIST_LDFLAGS)' -o $$dir/$$cmd ./cmd/$$cmd; \
		done; \
		cp README.md $$dir/; if [ -f LICENSE ]; then cp LICENSE $$dir/; fi; \
		tar -C $(DIST) --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - $$name | gzip -n > $$dir.tar.gz; \
		rm -rf $$dir; \
	done
	@set -e; for cmd in awf awf-serve; do \
		GOOS=linux GOARCH=amd64 CGO_ENABLED=0 $(TOOLS)/cyclonedx-gomod app -json -main cmd/$$cmd -output $(DIST)/$$cmd.cdx.json . 2>$(DIST)/.sbom.log || { cat $(DIST)/.sbom.log; exit 1; }; \
	done; rm -f $(DIST)/.sbom.log
	cd $(DIST) && sha256sum *.tar.gz *.cdx.json > SHA256SUMS
	@echo "dist: $(DIST)/ (version $(VERSION)); check with: cd $(DIST) && sha256sum -c SHA256SUMS"

IMAGE     ?= $(DIST)/awf-image.tar
IMAGE_ROOT ?= $(BIN)/image-root
IMAGE_TAG ?= localhost/awf:$(VERSION)

$(TOOLS)/mkimage: tools/go.mod tools/go.sum tools/mkimage/*.go
	cd tools && $(GO) build -o ../$(TOOLS)/mkimage ./mkimage

image: $(TOOLS)/mkimage ## an OCI image archive ($(IMAGE)) built without a Docker daemon: awf, awf-serve, git, busybox sh, non-root; IMAGE_AGENTS=1 adds node and the pinned agent CLIs (docs/guide/ci.md)
	@mkdir -p $(dir $(IMAGE))
	sh tools/mkimage/rootfs.sh $(IMAGE_ROOT)
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(DIST_LDFLAGS)' -o $(IMAGE_ROOT)/usr/local/bin/awf ./cmd/awf
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(DIST_LDFLAGS)' -o $(IMAGE_ROOT)/usr/local/bin/awf-serve ./cmd/awf-serve
	$(TOOLS)/mkimage -root $(IMAGE_ROOT) -tag $(IMAGE_TAG) -version $(VERSION) -revision '$(COMMIT)' -o $(IMAGE)

demo: build plugins ## run the offline demo: an agent step whose tools go through awf
	$(GO) build -trimpath -o $(BIN)/demo-model ./examples/demo-model
	examples/demo.sh

demo-review: build ## the review example offline: retry, for_each, parallel agents, call_workflow
	$(GO) build -trimpath -o $(BIN)/demo-model ./examples/demo-model
	examples/demo.sh examples/workflows/review.yaml

demo-hello: build ## the command-only example workflow with inputs and a branch
	$(AWF) run examples/workflows/hello.yaml --input name=developer --input shout=true

plugins: ## build the example plugins into bin/plugins (declared in .awf/plugins.yaml)
	$(GO) build -trimpath -o $(BIN)/plugins/ ./examples/plugins/...

$(TOOLS)/protoc-gen-go $(TOOLS)/protoc-gen-go-grpc: tools/go.mod tools/go.sum
	cd tools && $(GO) build -o ../$(TOOLS)/ google.golang.org/protobuf/cmd/protoc-gen-go google.golang.org/grpc/cmd/protoc-gen-go-grpc

proto: $(TOOLS)/protoc-gen-go $(TOOLS)/protoc-gen-go-grpc ## regenerate proto/pluginv1 with the pinned generators (needs protoc)
	sh proto/generate.sh $(TOOLS)

clean:
	rm -rf $(BIN)
