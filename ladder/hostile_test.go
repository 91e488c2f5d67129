package ladder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/gobot"
)

// A hostile entrant's program, submitted to the ladder as a student
// would, tries what a student's program must not do on a ladder's
// worker: read the ladder's database (every token's hash, every
// student's files), find another version in the folder of unpacked
// versions (in a mount namespace the folder is there, holding its own
// version only), read another student's bot, and write beside the ladder. It prints what it reached, on
// one line, and ends, so that its check game refuses it and its reason quotes
// what it printed. Each attempt must be refused by its box.
func TestLadderEntrantCannotReachTheLadder(t *testing.T) {
	st, _ := newLadder(t, "alice", "mallory")
	t.Setenv("ARENA_PYTHON", pythonWith(t, "import sys"))
	ctx := context.Background()
	programs := filepath.Join(st.dir, "programs") // where arena ladder serve's own workers unpack
	template, _ := gobot.Template("colosseum")
	u, _ := ReadUpload("bot.go", []byte(template), "")
	alice, err := st.Submit(ctx, "alice", u)
	if err != nil {
		t.Fatal(err)
	}
	alicesBot := filepath.Join(programs, fmt.Sprintf("v%d-%s", alice.ID, alice.Digest), "bot.go")
	probe := fmt.Sprintf(`import os, sys
said = []
def attempt(what, f):
    try:
        f()
        said.append("REACHED " + what)
    except Exception as e:
        said.append("REFUSED " + what + ": " + type(e).__name__)
attempt("the database", lambda: open(%q, "rb").read(16))
attempt("the database by its relative path", lambda: open("../../ladder.db", "rb").read(16))
def others():
    seen = [n for n in os.listdir(%q) if n.startswith("v%d-")]
    if not seen:
        raise PermissionError("no other version in sight")
attempt("another version in the programs folder", others)
attempt("alice's bot", lambda: open(%q).read())
try:
    open(%q, "w").write("x")  # in a root of its own, this path is its own /tmp's: the test looks on the machine
except Exception:
    pass
print("; ".join(said), file=sys.stderr)
sys.exit(3)
`, filepath.Join(st.dir, DBFile), programs, alice.ID, alicesBot, filepath.Join(st.dir, "mallory-was-here"))
	archive := zipOf(t, "probe", map[string][]byte{"probe.py": []byte(probe)})
	mu, err := ReadUpload("probe.zip", archive, "python3 probe.py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Submit(ctx, "mallory", mu); err != nil {
		t.Fatal(err)
	}
	workCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		Player{Dir: programs}.Serve(workCtx, Local{Store: st, Name: "local-1", Width: 1e9, Queued: 1}, 20*time.Millisecond, nil, func(s string) { t.Log(s) })
	}()
	defer func() { stop(); <-done }()
	guard := time.Now().Add(5 * time.Minute) // a guard against a stall, not a measure
	var reason string
	for {
		vs, err := st.Versions(ctx, "mallory")
		if err != nil {
			t.Fatal(err)
		}
		if vs[0].State != Checking {
			if vs[0].State != Refused {
				t.Fatalf("the probe's version is %s, not refused", vs[0].State)
			}
			reason = vs[0].Reason
			break
		}
		if time.Now().After(guard) {
			t.Fatal("the probe's check game was not played")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(alicesBot); err != nil {
		t.Errorf("alice's bot was not unpacked where the probe looked: %v", err)
	}
	if strings.Count(reason, "REFUSED") != 4 || strings.Contains(reason, "REACHED") {
		t.Errorf("the probe reached the ladder; it printed:\n%s", reason)
	}
	if _, err := os.Stat(filepath.Join(st.dir, "mallory-was-here")); err == nil {
		t.Error("the probe wrote beside the ladder")
	}
	t.Logf("the probe's check game: %s", reason)
}

// A version's command is the student's words: the server refuses one
// that names a path outside its upload, and the worker's box gives the
// program its upload and its runtime whatever the words name. Here the
// server's check is passed by: the command reaches the worker naming
// the ladder's database and its WAL, the tokens file, another version's
// folder, a file only root may read, a link to the database, and, by
// their relative names, files of the folder the worker runs in. The
// program tries to read each; every one must be refused.
func TestLadderCommandReachesNothing(t *testing.T) {
	st, _ := newLadder(t, "alice", "mallory")
	t.Setenv("ARENA_PYTHON", pythonWith(t, "import sys"))
	ctx := context.Background()
	programs := filepath.Join(st.dir, "programs")
	player := Player{Dir: programs}
	template, _ := gobot.Template("colosseum")
	au, _ := ReadUpload("bot.go", []byte(template), "")
	alice, err := st.Submit(ctx, "alice", au)
	if err != nil {
		t.Fatal(err)
	}
	alicesDir, err := player.unpacked(&Program{Version: alice.ID, Kind: au.Kind, Digest: alice.Digest, Files: au.Files})
	if err != nil {
		t.Fatal(err)
	}
	tokens := filepath.Join(st.dir, "tokens.txt")
	os.WriteFile(tokens, []byte("staff 0123456789abcdef0123456789abcdef\n"), 0o600)
	secretDir := filepath.Join(t.TempDir(), "root-only")
	os.Mkdir(secretDir, 0o700)
	secret := filepath.Join(secretDir, "secret")
	os.WriteFile(secret, []byte("the operator's secret"), 0o600)
	link := filepath.Join(t.TempDir(), "innocent.txt")
	if err := os.Symlink(filepath.Join(st.dir, DBFile), link); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(st.dir, DBFile+"-wal")); err != nil {
		t.Fatalf("the ladder keeps no WAL beside its database: %v", err)
	}
	t.Chdir(st.dir) // the worker runs in the ladder's folder: "ladder.db" names its database
	targets := []string{
		filepath.Join(st.dir, DBFile), filepath.Join(st.dir, DBFile+"-wal"), tokens, alicesDir,
		filepath.Join(alicesDir, "bot.go"), secret, secretDir, link, DBFile, "tokens.txt", "programs",
	}
	probe := `import os, sys
said = []
for p in sys.argv[1:]:
    try:
        if os.path.isdir(p):
            os.listdir(p)
        else:
            open(p, "rb").read(1)
        said.append("REACHED " + p)
    except Exception as e:
        said.append("REFUSED " + p + ": " + type(e).__name__)
print("; ".join(said), file=sys.stderr)
sys.exit(3)
`
	mu, err := ReadUpload("probe.zip", zipOf(t, "probe", map[string][]byte{"probe.py": []byte(probe)}), "python3 probe.py")
	if err != nil {
		t.Fatal(err)
	}
	// What the server refuses, by the words' paths:
	for _, p := range targets[:8] {
		if _, err := ReadUpload("probe.zip", zipOf(t, "probe", map[string][]byte{"probe.py": []byte(probe)}), "python3 probe.py "+p); err == nil {
			t.Errorf("the server took a command naming %s", p)
		}
	}
	// What the worker's box gives, with the server's check passed by:
	prog := &Program{Version: 99, Kind: mu.Kind, Command: "python3 probe.py " + strings.Join(targets, " "), Digest: mu.Digest(), Files: mu.Files}
	g, _ := st.Meta("config")
	o := player.Play(ctx, &Work{Game: "colosseum", Config: []byte(g), Seats: [2]*Program{prog, nil}})
	said := o.Faults[0] + o.Failure
	if strings.Count(said, "REFUSED") != len(targets) || strings.Contains(said, "REACHED") {
		t.Errorf("the command's words reached the machine; the probe said:\n%s", said)
	}
	// And a command that starts no runtime the ladder allows is not run.
	prog.Command = "cat " + filepath.Join(st.dir, DBFile)
	if o := player.Play(ctx, &Work{Game: "colosseum", Config: []byte(g), Seats: [2]*Program{prog, nil}}); !strings.Contains(o.Failure, `starts "cat", neither a file of its upload nor a runtime`) {
		t.Errorf("a command starting cat: %+v", o)
	}
	t.Logf("the probe: %s", said)
}
