# arena's build. `make test` is the whole suite: it installs what the tests
# need on Debian or Ubuntu (Ebitengine's X11/GL headers, Xvfb and Chromium), then
# vets and tests every package under a virtual display.

GO ?= go

# Ebitengine's build and test dependencies on Linux, as in its own CI.
APT_PACKAGES := xvfb xauth chromium python3 python3-numpy libgl1-mesa-dev libx11-dev libxrandr-dev libxcursor-dev \
	libxinerama-dev libxi-dev libxxf86vm-dev

.PHONY: analysis-shots report-shots test deps install vet cross dist bench fit limits measure demo clean slurm kube

# The second line runs the programs' tests again on the portable path
# (ARENA_PORTABLE=1: process groups and a watching launcher, Landlock and
# seccomp where the kernel has them, no namespace), the path of macOS and
# the BSDs and of Linux without user namespaces; all but the docs'
# commands, which the first line ran and which play no program the other
# tests do not (they are two minutes of the suite's thirty).
test: deps vet
	xvfb-run -a -s "-screen 0 1280x1024x24" $(GO) test -count=1 -timeout 30m ./...
	ARENA_PORTABLE=1 $(GO) test -count=1 -timeout 20m -skip '^TestDocsCommandsRun$$' ./players/ ./cmd/arena/
	$(GO) test -count=1 -race ./engine/match/ ./engine/play/ ./players/

vet: cross
	$(GO) vet ./...
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi

# cross builds the command line and the page's server for every system a
# download is made for (CGO_ENABLED=0, as make dist builds them), the
# desktop window where Ebitengine needs no cgo (Windows), and the page's
# programs for js/wasm; then vets, test files included, for Windows
# (every package) and macOS (every package but those that draw with
# Ebitengine, whose window needs cgo there), so that a Linux-only name in
# a shared file fails here; and checks the GitHub workflows with actionlint
# (a Go module, at a pinned version).
ACTIONLINT := v1.7.7
TARGETS := linux/amd64 linux/arm64 darwin/arm64 darwin/amd64 windows/amd64 windows/arm64
EBITEN_PKGS := /cmd/desktop$$|/internal/blank$$|/render/ebitencanvas$$|/ui$$
cross:
	@set -e; for t in $(TARGETS); do \
		for p in ./cmd/arena ./cmd/wasm; do \
			GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null $$p; \
		done; \
		case $$t in windows/*) GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/desktop;; esac; \
		echo "built $$t"; \
	done
	@for p in ./cmd/wasm ./cmd/botworker; do GOOS=js GOARCH=wasm $(GO) build -o /dev/null $$p || exit 1; done; echo "built js/wasm"
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) vet ./...
	$(GO) run github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT) .github/workflows/*.yml
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet $$(GOOS=darwin $(GO) list ./... | grep -v -E '$(EBITEN_PKGS)')

# dist writes the downloads to dist/: for each system of TARGETS an
# archive (.tar.gz; .zip for Windows) holding arena with the page's files
# inside it (arena serve needs no Go), the desktop window (arena-desktop)
# where this machine can build it (Windows, and this machine's own system
# with cgo: it says which archives it left without; the release workflow
# builds every system on its own runner), a README written for the
# download, the docs, example programs and LICENSES.txt, and SHA256SUMS;
# VERSION names the release (default: git describe).
VERSION ?=
DIST_TARGETS ?= $(subst $(eval) ,$(comma),$(TARGETS))
comma := ,
dist: deps
	$(GO) run ./cmd/release -o dist -targets $(DIST_TARGETS) $(if $(VERSION),-version $(VERSION))

# deps installs the missing Debian packages (as root, or through sudo).
deps:
	@$(MAKE) --no-print-directory install PACKAGES="$(APT_PACKAGES)"

install:
	@missing=""; \
	for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		command -v apt-get >/dev/null || { echo "make deps: install these packages:$$missing"; exit 1; }; \
		sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		echo "installing:$$missing"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

bench:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./engine/... ./render/...
	$(GO) test -run '^$$' -bench . -benchtime 4x ./tournament/
	$(GO) test -run '^$$' -bench BoxStart -benchtime 100x ./box/
	$(GO) test -run '^$$' -bench . -benchtime 1x ./ladder/
	$(GO) test -run '^$$' -bench ProgramSession -benchtime 1x ./page
	$(GO) test -run '^$$' -bench . -benchtime 1x ./gobot/interp
	$(GO) test -run '^$$' -bench . -benchtime 1x ./gobot
	$(GO) test -run '^$$' -bench 'ReportCost|AnalysisSwing' -benchtime 1x -timeout 1h ./analysis
	xvfb-run -a $(GO) test -run '^$$' -bench PageBotBuild -benchtime 1x ./page
	xvfb-run -a $(GO) test -run '^$$' -bench StreamFrames -benchtime 4x ./ui
	PATH="$$PATH:$$($(GO) env GOROOT)/lib/wasm" GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchtime 1x ./gobot/interp

# limits plays each limit of the README's table at the limit, the arena
# command in a process of its own, and prints its wall time, peak memory
# and longest moves (cmd/arena/limits_test.go); LIMITS=pathgame picks some.
# The Life cases play 4,096 turns on a 4096x4096 board. The last,
# LIMITS=page, plays the Life case in the page's worker, in headless
# Chromium (page/limits_test.go).
LIMITS ?= .
limits: deps
	$(GO) test -run '^$$' -bench 'Limits/$(LIMITS)' -benchtime 1x -timeout 4h ./cmd/arena
	$(GO) test -run '^$$' -bench 'PageLimits/$(LIMITS)' -benchtime 1x -timeout 4h ./page

# measure logs the frame rates and the Go-side draw times of the page (in
# headless Chromium) and of the window (under Xvfb), for a match of each
# game at 1280x800, each right after the rate of a blank Ebitengine
# program (internal/blank) measured the same way, and as a ratio to it
# (the window's: the median of WINDOW_ROUNDS rounds, see
# internal/blank/measure-window.sh); BUSY=2 runs two CPU-bound processes
# beside them. It also measures what a share of a core taken costs the
# blank page itself (BenchmarkBlankUnderLoad). ARENA_NO_GPU=1 measures the
# page in Chromium as it runs on a machine without a GPU (docs/speed.md).
BUSY ?= 0
DESKTOP_GAMES := "life -p1 strong -p2 greedy -seed 7" "colosseum -preset 9 -p1 strong -p2 greedy -seed 7" \
	"mapcolor -preset voronoi -p1 course -p2 greedy -seed 5" "evasion -p1 strong -p2 greedy -seed 7" \
	"pathgame -preset gen-300 -p1 strong -p2 greedy -seed 5" \
	"life -p1 strong -p2 greedy -seed 7 -thinking -turn 20" "colosseum -preset 9 -p1 strong -p2 greedy -seed 7 -thinking -turn 6" \
	"mapcolor -preset voronoi -p1 course -p2 greedy -seed 5 -thinking -turn 3" "evasion -p1 strong -p2 greedy -seed 7 -thinking -turn 41" \
	"pathgame -preset gen-300 -p1 strong -p2 greedy -seed 5 -thinking -turn 6" \
	"life -p1 strong -p2 greedy -seed 7 -thinking" "colosseum -preset 9 -p1 strong -p2 greedy -seed 7 -thinking" \
	"mapcolor -preset voronoi -p1 course -p2 greedy -seed 5 -thinking" "evasion -p1 strong -p2 greedy -seed 7 -thinking" \
	"pathgame -preset gen-300 -p1 strong -p2 greedy -seed 5 -thinking"
XVFB_SCREEN := -s "-screen 0 1280x1024x24"
WINDOW_FRAMES := 630
WINDOW_ROUNDS := 3
measure: deps
	@pids=""; for i in $$(seq 1 $(BUSY)); do sha256sum /dev/zero & pids="$$pids $$!"; done; \
	xvfb-run -a $(GO) test -count=1 -timeout 2h -run '^$$' -bench 'PageFrames|BlankUnderLoad' -benchtime 1x ./page | grep 'frames/s\|x-idle'; \
	$(GO) build -o /tmp/arena-desktop-measure ./cmd/desktop && $(GO) build -o /tmp/arena-blank-measure ./internal/blank && \
	internal/blank/measure-window.sh /tmp/arena-desktop-measure /tmp/arena-blank-measure $(WINDOW_FRAMES) $(WINDOW_ROUNDS) $(DESKTOP_GAMES); \
	status=$$?; [ -z "$$pids" ] || kill $$pids; exit $$status

# fit refits each game's win-probability scale from arena's games and
# prints its quality on games it was not fitted on (docs/analysis.md).
fit:
	$(GO) test -run '^$$' -bench WinScale -benchtime 1x -timeout 3h -v ./analysis | grep 'fit_test\|WinScale/'

# demo remakes the README's GIF, frame and screenshots of the page.
demo: deps
	$(GO) run ./cmd/arena record -game life -p1 strong -p2 greedy -seed 7 -o docs/life-strong-vs-greedy.gif
	$(GO) run ./cmd/arena record -game life -p1 strong -p2 greedy -seed 7 -at 120.6 -o docs/life-turn-120.png
	$(GO) run ./cmd/arena record -game colosseum -p1 strong:nodes=30000 -p2 greedy -seed 7 -preset 9 -speed 2 -o docs/colosseum-strong-vs-greedy.gif
	$(GO) run ./cmd/arena record -game mapcolor -preset australia -p1 course -p2 course -size 640 -o docs/mapcolor-australia.gif
	$(GO) run ./cmd/arena record -game evasion -p1 strong -p2 greedy -seed 7 -o docs/evasion-strong-vs-greedy.gif
	$(GO) run ./cmd/arena record -game pathgame -preset gen-300 -seed 5 -p1 strong -p2 greedy -o docs/pathgame-strong-vs-greedy.gif
	$(GO) run ./cmd/arena record -game colosseum -p1 strong:nodes=30000 -p2 greedy -seed 7 -preset 9 -speed 1 -thinking -o docs/colosseum-thinking.gif
	ARENA_SHOTS=$(CURDIR)/docs xvfb-run -a $(GO) test -count=1 -timeout 30m -run 'TestPage$$|TestPageHumanPlay|TestPageMapcolor|TestPageEvasion|TestPagePhone|TestPagePlaysPrograms|TestPageRunsAGauntlet|TestPageEditor|TestPageThinking|TestPageAnalysis' ./page
	$(MAKE) --no-print-directory analysis-shots
	rm -f docs/phone-gauntlet.png docs/phone-programs.png docs/phone-start-pathgame.png docs/phone-start.png docs/phone-life.png docs/phone-leave.png docs/phone-colosseum.png docs/phone-evasion.png docs/playground-editor-allocates.png docs/playground-editor-loops.png docs/phone-editor.png docs/phone-editor-match.png docs/thinking-off-*.png docs/thinking-page-bot.png

# analysis-shots screenshots the window's analysis board on each game at
# 1280x800 and at a phone's 390x844 (docs/playground.md shows them), once
# the game's report is made (it opens the board on the decision it
# judges at the turn: at 400 frames a phone's shot of Life was taken
# before, a desktop's after).
ANALYSIS_SHOTS := colosseum:6:4:strong:nodes=20000 mapcolor::1:strong life::6:strong evasion::49:strong pathgame:advshort:4:strong
analysis-shots:
	$(GO) build -o /tmp/arena-desktop-shots ./cmd/desktop
	@set -e; for spec in $(ANALYSIS_SHOTS); do \
		game=$${spec%%:*}; rest=$${spec#*:}; preset=$${rest%%:*}; rest=$${rest#*:}; turn=$${rest%%:*}; p1=$${rest#*:}; \
		for size in 1280x800 390x844; do \
			out=docs/analysis-$$game.png; [ $$size = 1280x800 ] || out=docs/phone-analysis-$$game.png; \
			xvfb-run -a -s "-screen 0 1280x1024x24" /tmp/arena-desktop-shots -size $$size -game $$game $${preset:+-preset $$preset} \
				-p1 $$p1 -p2 greedy -seed 3 -turn $$turn -analyse -screenshot $$out -frames 3000; \
			echo "$$out"; \
		done; \
	done

# report-shots remakes docs/analysis.md's screenshots of each game's
# report in the window: a finished match on the analysis board, at a
# judged decision (game/preset/p1/p2/seed/turn/frames; the frames give
# the report time to arrive).
REPORT_SHOTS := colosseum/7/strong:nodes=20000/greedy/3/15/1500 mapcolor/usa/course/greedy/2/10/1500 \
	life/-/strong/greedy/3/5/3000 pathgame/-/strong/greedy/3/25/1500 evasion/-/strong/greedy/3/714/5000
report-shots:
	$(GO) build -o /tmp/arena-desktop-shots ./cmd/desktop
	@set -e; for spec in $(REPORT_SHOTS); do \
		set -- $$(echo $$spec | tr / ' '); game=$$1; preset=$$2; [ $$preset != - ] || preset=; \
		for size in 1280x800 390x844; do \
			out=docs/report-$$game.png; [ $$size = 1280x800 ] || out=docs/phone-report-$$game.png; \
			xvfb-run -a -s "-screen 0 1280x1024x24" /tmp/arena-desktop-shots -size $$size -game $$game $${preset:+-preset $$preset} \
				-p1 $$3 -p2 $$4 -seed $$5 -turn $$6 -analyse -screenshot $$out -frames $$7; \
			echo "$$out"; \
		done; \
	done

# slurm plays a tournament as a real Slurm job array on a one-node cluster
# it starts here (Debian's slurm-wlm and munge; as root), merges the shards
# in a job that depends on the array, and checks the standings against one
# run (deploy/slurm/try.sh); then has a class ladder's games played by a
# job array of workers (deploy/slurm/try-ladder.sh). Not part of make test.
slurm:
	@$(MAKE) --no-print-directory install PACKAGES="slurm-wlm munge"
	$(GO) build -o /tmp/arena-slurm ./cmd/arena
	ARENA=/tmp/arena-slurm deploy/slurm/try.sh
	ARENA=/tmp/arena-slurm deploy/slurm/try-ladder.sh

clean:
	$(GO) clean -testcache

# kube dry-runs deploy/kubernetes's manifests (the volume claim, the
# tournament's Indexed Job, the merge Job, the ladder's server, Service
# and workers) against a Kubernetes API server
# it starts on 127.0.0.1: kube-apiserver v1.37.2, built from the module
# proxy by the module in deploy/kubernetes/check (a few minutes the first
# time), on kine over SQLite, as k3s runs it. Each manifest must be
# accepted with dryRun=All, and refused with a field its kind lacks.
KUBE_BIN ?= $(CURDIR)/.kube-bin
kube:
	cd deploy/kubernetes/check && $(GO) build -o $(KUBE_BIN)/kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver && $(GO) build -o $(KUBE_BIN)/check .
	GOBIN=$(KUBE_BIN) $(GO) install github.com/k3s-io/kine@v0.17.5
	$(KUBE_BIN)/check -kine $(KUBE_BIN)/kine -apiserver $(KUBE_BIN)/kube-apiserver \
		deploy/kubernetes/volume-claim.yaml deploy/kubernetes/tournament-job.yaml deploy/kubernetes/merge-job.yaml deploy/kubernetes/ladder.yaml
