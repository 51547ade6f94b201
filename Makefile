# awf — developer targets. `make demo` runs the main job offline; `make test` runs the tests.
GO        ?= go
BIN       := bin
AWF       := $(BIN)/awf
TOOLS     := $(BIN)/tools
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
FUZZTIME  ?= 10s
BENCHTIME ?= 1s

.PHONY: all build plugins demo-hello proto test test-race test-unit lint lint-arch vet staticcheck bench fuzz mutate refcompare demo demo-review clean tools

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
