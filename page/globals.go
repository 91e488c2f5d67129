package page

// Global is a name on the JavaScript global object (window, or a
// worker's self) that joins the page's JavaScript and its Go: one side
// defines it, the other calls it. Every such name is declared in
// Globals, and a test (TestGlobalsAreDeclared) fails when a file uses one
// that is not, when a declared one is no longer used, or when it is
// defined or called somewhere other than where Globals says.
type Global struct {
	Name string
	// DefinedIn is the file that puts the name on the global object:
	// window.NAME = or self.NAME = in JavaScript, Set("NAME", …) in Go.
	DefinedIn string
	// CalledFrom are the files that use it (Go's js.Global().Get or
	// Call, JavaScript's NAME(…) or NAME.x); "tests" where only the
	// browser tests read it (through chromedp).
	CalledFrom []string
	// Why says what passes through it.
	Why string
}

// Globals are the page's seams between JavaScript and Go, grouped by
// the program they join: the page (index.html and arena.wasm), the
// match worker (worker.js and arena.wasm again), the bot worker and the
// gauntlet worker (botworker.js, gauntlet.js and gobot.wasm).
var Globals = []Global{
	// The start of every program and worker of the page: boot.js.
	{"arenaBoot", "boot.js", []string{"index.html", "worker.js", "botworker.js", "gauntlet.js"},
		"runs a compiled Go program, keeps its last lines and says why it stopped or could not start"},
	{"arenaWorker", "boot.js", []string{"index.html", "worker.js", "gauntlet.js"},
		"starts a worker, posts it its first messages (the compiled modules first) and says in words why it failed"},
	// The page: index.html and cmd/wasm.
	{"arenaLoaded", "index.html", []string{"cmd/wasm/main_js.go", "internal/blank/drawn_js.go"},
		"Go says its first frame is drawn: the loading screen goes"},
	{"arenaTest", "cmd/wasm/main_js.go", []string{"tests", "internal/blank/drawn_js.go"},
		"the test hook: the page's status, its click targets, the editor's state (internal/blank sets its own)"},
	{"arenaTimings", "index.html", []string{"tests"},
		"when the page started, instantiated its program and drew its first frame (BenchmarkPageLoad)"},
	{"arenaFrames", "index.html", []string{"tests"},
		"the frames the browser gave the page: their count, the longest, the slow ones (BenchmarkPageFrames)"},
	{"arenaMemory", "boot.js", []string{"tests"},
		"the size of a started program's WebAssembly memory, which only grows (BenchmarkPageFrames' memory-mb)"},
	{"arenaStartWorker", "index.html", []string{"cmd/wasm/main_js.go"},
		"Go asks for a match computed in a match worker; its messages wait for Go's take, once a frame"},
	{"arenaStartServerMatch", "index.html", []string{"cmd/wasm/main_js.go"},
		"Go asks for a match with a program the server offers, streamed from the server, taken as the worker's are"},
	{"arenaProgramList", "index.html", []string{"cmd/wasm/main_js.go"},
		"the programs the server offers in the seat menus, fetched before Go starts"},
	{"arenaStartGauntlet", "index.html", []string{"cmd/wasm/main_js.go"},
		"Go asks the server to run a gauntlet against a program it offers"},
	{"arenaStartPageGauntlet", "index.html", []string{"cmd/wasm/gauntlet_js.go"},
		"Go asks for a gauntlet of the page's own bot, run in a gauntlet worker"},
	{"arenaGauntletReplay", "index.html", []string{"cmd/wasm/gauntlet_js.go"},
		"Go asks for a kept gauntlet game's replay, read from the page's storage"},
	{"arenaGauntletReport", "index.html", []string{"cmd/wasm/gauntlet_js.go"},
		"Go says a gauntlet's report is ready (or not) under its key"},
	{"arenaOpenEditor", "index.html", []string{"cmd/wasm/main_js.go"},
		"Go opens the bot editor on a game"},
	{"arenaBotSource", "index.html", []string{"cmd/wasm/main_js.go", "index.html"},
		"the editor's source for a game: the linked one, the kept one, or the template"},
	{"arenaLinkBot", "index.html", []string{"cmd/wasm/main_js.go"},
		"a link's bot source, handed to the editor"},
	{"arenaEditorState", "index.html", []string{"cmd/wasm/main_js.go"},
		"the editor's state for the test hook"},
	{"arenaEditorHost", "cmd/wasm/main_js.go", []string{"index.html"},
		"what the editor asks of Go: a game's label, its bots, its template, and Run"},
	// The match worker: worker.js and cmd/wasm/matchworker.
	{"arenaWorkerReady", "worker.js", []string{"cmd/wasm/worker_js.go", "cmd/wasm/matchworker/matchworker_js.go"},
		"the worker's Go hands over the function that takes a match request"},
	{"arenaBotOpen", "worker.js", []string{"players/kind_go_js.go"},
		"a go: bot of the match starts in a bot worker of its own, one line each way"},
	// The bot worker and the gauntlet worker: gobot.wasm.
	{"arenaBotReady", "botworker.js", []string{"gobot/serve/main_js.go"},
		"the bot worker's Go (interpreted or built) hands over the function that takes the bot's lines"},
	{"arenaTakePrints", "botworker.js", []string{"gobot/serve/main_js.go"},
		"a bot built with Go takes what it printed to its standard output, for its reply"},
	{"arenaGauntletReady", "gauntlet.js", []string{"cmd/botworker/gauntlet_js.go"},
		"the gauntlet worker's Go hands over the function that takes the gauntlet"},
	{"arenaStartMatch", "gauntlet.js", []string{"cmd/botworker/gauntlet_js.go"},
		"a gauntlet's game is computed in a match worker of its own"},
	{"arenaKeep", "gauntlet.js", []string{"cmd/botworker/keep_js.go"},
		"the gauntlet keeps its games and report in the page's storage (IndexedDB)"},
}
