package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arena-playground/arena/box"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/plural"
	"github.com/arena-playground/arena/ladder"
	"github.com/arena-playground/arena/page"
)

// ladderCommands are arena ladder's subcommands, a line each.
var ladderCommands = [][2]string{
	{"tokens", "issue the roster's tokens, and the staff's and the workers' (-dir DIR -roster FILE); one student's again (-dir DIR -student ID)"},
	{"serve", "serve the ladder's pages and API, schedule its games, play them with -j N (-game NAME -dir DIR -roster FILE [-deadline T]; -config FILE for a course's ladders)"},
	{"submit", "send a version: a .go file, or a program's folder and its command (-server URL -token T FILE|DIR)"},
	{"work", "play the ladder's games on this machine, every program in its box (-server URL -token W [-j N])"},
	{"freeze", "close submissions and queue the final round robin (-server URL -token STAFF [-rounds N])"},
	{"final", "write the final's report and its CSV once its games are played (-server URL -token STAFF -o FILE.html -csv FILE.csv [-wait])"},
	{"accommodate", "stretch one student's clock in their games (-server URL -token STAFF -student NAME -clock 1.5)"},
	{"report", "the reporter a ladder's server starts (-dir DIR): reports its games, plays new versions' suites, at the lowest priority, until its standard input closes"},
	{"recheck", "check a refused version again once the host is fixed, not counting against its student (-server URL -token STAFF -version ID)"},
	{"export", "write the grades for a grade book (-server URL -token STAFF -format gradescope|canvas|moodle|csv -o FILE [-grade RULE])"},
}

// ladderUsage lists the subcommands.
func ladderUsage(w io.Writer) {
	fmt.Fprintln(w, "arena ladder runs a class's ladder all term: students submit, games run without end, ratings with their intervals.")
	fmt.Fprintln(w, "\nUsage: arena ladder <subcommand> [flags]   (arena ladder <subcommand> -h: its flags)\n\nSubcommands:")
	for _, c := range ladderCommands {
		fmt.Fprintf(w, "  %-12s %s\n", c[0], c[1])
	}
	fmt.Fprintln(w, "\nA course's term with it, step by step: docs/ladder.md")
}

// runLadder is `arena ladder`: its subcommands.
func runLadder(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		ladderUsage(stderr)
		return exitCode(2)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		ladderUsage(stdout)
		return nil
	case "tokens":
		return runLadderTokens(args[1:], stdout)
	case "serve":
		return runLadderServe(args[1:], stdout, stderr)
	case "submit":
		return runLadderSubmit(args[1:], stdout)
	case "work":
		return runLadderWork(args[1:], stdout, stderr)
	case "report":
		return runLadderReport(args[1:], stdout, stderr)
	case "freeze":
		return runLadderFreeze(args[1:], stdout)
	case "final":
		return runLadderFinal(args[1:], stdout)
	case "accommodate":
		return runLadderAccommodate(args[1:], stdout)
	case "recheck":
		return runLadderRecheck(args[1:], stdout)
	case "export":
		return runLadderExport(args[1:], stdout)
	}
	ladderUsage(stderr)
	return usagef("no subcommand %q", args[0])
}

// runLadderTokens issues the roster's tokens, one a line: NAME TOKEN,
// then the staff's and the workers'.
func runLadderTokens(args []string, stdout io.Writer) error {
	fs := newFlags("ladder tokens", stdout)
	dir := fs.String("dir", "", "the ladder's `directory`")
	roster := fs.String("roster", "", "the roster `file`: a CSV with id,name,email,section,team columns (or a grade book's export), or one student's name a line")
	student := fs.String("student", "", "issue only this student's token again, by their `id` (everyone else's keeps working)")
	config := fs.String("config", "", "a course's ladders' TOML `file`: its folder and roster, one set of tokens for all its ladders")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *config != "" {
		c, err := ladder.ReadCourseConfig(*config)
		if err != nil {
			return err
		}
		*dir, *roster = c.Dir, c.Roster
	}
	if *dir == "" || *roster == "" && *student == "" {
		return usagef("arena ladder tokens -dir DIR -roster FILE (everyone's; -config FILE for a course's ladders), or -dir DIR -student ID (one student's again)")
	}
	st, err := ladder.Open(*dir)
	if err != nil {
		return err
	}
	defer st.Close()
	if *student != "" {
		is, err := st.IssueToken(context.Background(), *student)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s %s\n", is.Name, is.Token)
		return nil
	}
	r, err := ladder.ReadRoster(*roster)
	if err != nil {
		return err
	}
	issued, err := st.IssueTokens(context.Background(), r)
	if err != nil {
		return err
	}
	for _, is := range issued {
		fmt.Fprintf(stdout, "%s %s\n", is.Name, is.Token)
	}
	return nil
}

// runLadderServe serves a ladder, or a course's ladders (-config): the
// pages and API, the scheduler, and with -j its own workers.
func runLadderServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ladder serve", stdout)
	config := fs.String("config", "", "a course's ladders on this server, as a TOML `file` (see docs/ladder.md): one roster and one set of tokens, a game, board and deadline each; instead of -game, -dir, -roster and the ladder's own flags")
	gameName := fs.String("game", "", "the game (see 'arena games')")
	preset := fs.String("preset", "", "the board: a preset config by `name` (default: the game's first)")
	dir := fs.String("dir", "", "the ladder's `directory`: its database, and the programs its workers unpack")
	rosterFile := fs.String("roster", "", "the roster `file`: a CSV with id,name,email,section,team columns, or one student's name a line (give them tokens with arena ladder tokens)")
	addr := fs.String("addr", "127.0.0.1:8080", "where to serve: beyond this machine, give -cert and -key, or -proxy behind an HTTPS proxy")
	jobs := fs.Int("j", 0, "games this process plays at once (0: none here, workers elsewhere play them)")
	width := fs.Float64("width", 100, "a version plays first until its 95% interval is narrower than this many Elo points")
	lease := fs.Duration("lease", ladder.LeaseTime, "how long a worker holds a game before it goes to another worker")
	cert := fs.String("cert", "", "a TLS certificate `file` (PEM), for HTTPS")
	key := fs.String("key", "", "its key `file`")
	proxy := fs.Bool("proxy", false, "an HTTPS proxy before this server terminates TLS: serve plain HTTP beyond loopback")
	playing := addPlayingFlags(fs)
	deadline := fs.String("deadline", "", "when submissions close on their own and the final round robin is queued, as `2026-12-15T23:59:00-05:00` (none: the staff freeze the ladder)")
	grace := fs.Duration("grace", 0, "submissions are still taken this long after the deadline")
	rounds := fs.Int("rounds", 2, "rounds of the final round robin queued at the deadline")
	gradeRule := fs.String("grade", ladder.DefaultGradeRule, "the exports' grade `rule`: an expression of points, games, wins, draws, losses, rank, entrants, rating, panel_points, panel_games; or rank bands, as rank:1-3=100,4-10=90,*=70")
	gradeMax := fs.Float64("max", 100, "what a grade is out of")
	panel := fs.String("panel", "", "the reference panel: roster `entries` the staff submit for, graded by no one and graded against (comma-separated)")
	pseudonyms := fs.Bool("pseudonyms", false, "students see each other by pseudonyms (each picks theirs on their page), not names")
	top := fs.Int("top", 0, "students see the board's first `N` rows and the three just ahead of their own (0: the whole board)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	runtimes, err := playing.parse()
	if err != nil {
		return err
	}
	var course *ladder.CourseConfig
	if *config != "" {
		if *gameName != "" || *dir != "" || *rosterFile != "" || *deadline != "" {
			return usagef("-config names the ladders, their folder and roster: give it without -game, -dir, -roster or -deadline")
		}
		if course, err = ladder.ReadCourseConfig(*config); err != nil {
			return err
		}
	} else {
		if *dir == "" || *rosterFile == "" || *gameName == "" {
			return usagef("-game, -dir and -roster are required (or -config for a course's ladders)")
		}
		one := ladder.LadderConfig{Game: *gameName, Preset: *preset, Grade: *gradeRule, Max: *gradeMax, Panel: splitList(*panel),
			Pseudonyms: *pseudonyms, Top: *top, Width: *width, Rounds: *rounds, GraceTime: *grace}
		if one.GradeRule, err = ladder.ParseGradeRule(*gradeRule); err != nil {
			return usageError{err}
		}
		if *deadline != "" {
			if one.Deadline, err = time.Parse(time.RFC3339, *deadline); err != nil {
				return usagef("-deadline %q: want a time with its zone, as 2026-12-15T23:59:00-05:00", *deadline)
			}
		}
		course = &ladder.CourseConfig{Dir: *dir, Roster: *rosterFile, Ladders: []ladder.LadderConfig{one}}
	}
	if err := plainOK(*addr, *cert, *key, *proxy); err != nil {
		return usageError{err}
	}
	roster, err := ladder.ReadRoster(course.Roster)
	if err != nil {
		return err
	}
	if *jobs > 0 {
		if err := playing.check(); err != nil {
			return err
		}
		boxSummary(stderr, "arena ladder")
	}
	box.Private(course.Dir) // no entrant is given a folder that holds a database
	logTo := func(s string) { fmt.Fprintln(stderr, "arena ladder:", s) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	wake := make(chan struct{}, 1)
	wakeUp := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	var playground http.Handler
	if pageFiles != nil {
		site, err := page.Load(pageFiles)
		if err != nil {
			return err
		}
		playground = site.Files()
	} else {
		fmt.Fprintln(stderr, "arena ladder: this arena carries no page files, so a game's replay is a download, not opened in the playground at "+ladder.PlayPath+" (a release carries them; make dist builds one)")
	}
	var servers []*ladder.Server
	for _, lc := range course.Ladders {
		dir := course.Dir
		if *config != "" {
			dir = filepath.Join(course.Dir, lc.Name)
		}
		st, err := openLadder(ctx, dir, lc, roster, stderr)
		if err != nil {
			return err
		}
		defer st.Close()
		st.Log = logTo
		go st.KeepDeadline(ctx, logTo, wakeUp)
		servers = append(servers, &ladder.Server{Store: st, Name: lc.Name, Title: lc.Title, Graded: lc.Graded, Width: lc.Width, Lease: *lease,
			Runtimes: runtimes, Proxy: *proxy, Wake: wakeUp, Playground: playground,
			Grading:    ladder.GradeOptions{Rule: lc.GradeRule, Max: lc.Max, Panel: lc.Panel},
			Pseudonyms: lc.Pseudonyms, Top: lc.Top})
	}
	handler := servers[0].Handler()
	var sources ladder.Sources
	for _, srv := range servers {
		sources = append(sources, ladder.Local{Store: srv.Store, Width: srv.Width, Queued: 2 * *jobs})
	}
	what := fmt.Sprintf("%s on %s", course.Ladders[0].Game, servers[0].Store.Board())
	if *config != "" {
		auth, err := ladder.Open(course.Dir)
		if err != nil {
			return err
		}
		defer auth.Close()
		if err := auth.EnterRoster(ctx, roster); err != nil {
			return err
		}
		c := &ladder.Course{Auth: auth, Ladders: servers, Lease: *lease}
		handler = c.Handler()
		what = plural.S(len(servers), "ladder")
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	scheme := "http"
	if *cert != "" {
		scheme = "https"
	}
	fmt.Fprintf(stdout, "arena ladder: %s, %s, serving %s://%s/\n", what, plural.S(len(roster), "student"), scheme, ln.Addr())
	if !*proxy {
		ln = ladder.LimitPerAddress(ln, ladder.PerAddress)
	}
	hs := servers[0].HTTPServerFor(handler)
	for _, srv := range servers {
		// Each ladder's games are reported in a process the system runs
		// last: the games' players come first (docs/analysis.md). Then
		// each new version plays its student's past mistakes again.
		dir := srv.Store.Dir()
		go ladder.ReportIn(ctx, func() *exec.Cmd {
			exe, err := os.Executable()
			if err != nil {
				exe = os.Args[0]
			}
			return exec.Command(exe, append([]string{"ladder", "report", "-dir", dir, "-programs", filepath.Join(course.Dir, "programs")},
				playing.args()...)...)
		}, logTo)
	}
	var wg sync.WaitGroup
	for k := range *jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := make(ladder.Sources, len(sources))
			for i, s := range sources {
				l := s.(ladder.Local)
				l.Name = fmt.Sprintf("local-%d", k+1)
				src[i] = l
			}
			playing.player(filepath.Join(course.Dir, "programs"), runtimes).Serve(ctx, src, 2*time.Second, wake, logTo)
		}()
	}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()
	if *cert != "" {
		err = hs.ServeTLS(ln, *cert, *key)
	} else {
		err = hs.Serve(ln)
	}
	wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// openLadder opens a ladder's store in dir as its config says: its game
// and board fixed the first time, the roster entered, its deadline kept,
// and the games its own workers held when it stopped queued again.
func openLadder(ctx context.Context, dir string, lc ladder.LadderConfig, roster ladder.Roster, stderr io.Writer) (*ladder.Store, error) {
	g, err := gameFlag(lc.Game)
	if err != nil {
		return nil, err
	}
	board := g.Presets()[0]
	if lc.Preset != "" {
		if board, err = match.LookupPreset(g, lc.Preset); err != nil {
			return nil, usageError{err}
		}
	}
	cfg, err := json.Marshal(board.Config)
	if err != nil {
		return nil, err
	}
	st, err := ladder.Open(dir)
	if err != nil {
		return nil, err
	}
	st.Width = lc.Width
	err = st.Setup(lc.Game, board.Name, cfg)
	if err == nil {
		err = st.EnterRoster(ctx, roster)
	}
	if err == nil {
		if d := lc.DeadlineOf(); !d.At.IsZero() {
			err = st.SetDeadline(d)
		}
	}
	if err != nil {
		st.Close()
		return nil, err
	}
	// This server's own workers of an earlier run died with it: their
	// games go back to the queue now, not when their leases end.
	if n, err := st.ReleaseLeases(ctx, "local-"); err != nil {
		st.Close()
		return nil, err
	} else if n > 0 {
		fmt.Fprintf(stderr, "arena ladder: %s its own workers were playing when it stopped %s queued again\n", plural.S(int(n), "game"), map[bool]string{true: "is", false: "are"}[n == 1])
	}
	return st, nil
}

// plainOK refuses plain HTTP beyond loopback: tokens would cross the
// network readable.
func plainOK(addr, cert, key string, proxy bool) error {
	if (cert == "") != (key == "") {
		return errors.New("-cert and -key go together")
	}
	if cert != "" || proxy {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: want HOST:PORT", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-addr %s: beyond this machine the ladder serves HTTPS: give -cert and -key, or -proxy when an HTTPS proxy stands before it (see docs/ladder.md)", addr)
}

// runLadderSubmit sends a version: a .go file, an archive, or a folder
// (packed here, as the server reads archives).
func runLadderSubmit(args []string, stdout io.Writer) error {
	fs := newFlags("ladder submit", stdout)
	server := fs.String("server", "", "the ladder's `URL`")
	token := fs.String("token", "", "your token (or $ARENA_LADDER_TOKEN)")
	command := fs.String("command", "", "for a program: its command, as run in its folder (python3 agent.py; py:student_agent.py for a Colosseum agent)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("ARENA_LADDER_TOKEN")
	}
	if *server == "" || *token == "" || fs.NArg() != 1 {
		return usagef("arena ladder submit -server URL -token T [-command CMD] FILE|DIR")
	}
	path := fs.Arg(0)
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	name := filepath.Base(path)
	var data []byte
	if info.IsDir() {
		if data, err = ladder.PackDir(path); err != nil {
			return err
		}
		name += ".tar.gz"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		data, err = io.ReadAll(io.LimitReader(f, ladder.MaxUpload+1))
		f.Close()
		if err != nil {
			return err
		}
	}
	// Checked here as the server checks it: a mistake is said before it is sent.
	if _, err := ladder.ReadUpload(name, data, *command); err != nil {
		return err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.WriteField("command", *command)
	mw.Close()
	req, err := http.NewRequest("POST", strings.TrimSuffix(*server, "/")+"/api/ladder/submit", &body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+*token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("the ladder refused it: %s: %s", res.Status, strings.TrimSpace(string(answer)))
	}
	var v ladder.Version
	if err := json.Unmarshal(answer, &v); err != nil {
		return fmt.Errorf("the ladder's answer cannot be read: %v", err)
	}
	fmt.Fprintf(stdout, "%s v%d (%s, %s) is being checked: one game against random, then it plays the ladder; see %s/students/%s\n",
		v.Student, v.Number, v.Kind, v.Digest, strings.TrimSuffix(*server, "/"), v.Student)
	return nil
}

// runLadderWork plays the ladder's games on this machine.
func runLadderWork(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ladder work", stdout)
	server := fs.String("server", "", "the ladder's `URL`")
	token := fs.String("token", "", "the workers' token (or $ARENA_LADDER_TOKEN)")
	jobs := fs.Int("j", 1, "games played at once")
	dir := fs.String("dir", "", "where the programs are unpacked (default: a folder of the user's cache)")
	name := fs.String("name", "", "this worker's name in the ladder (default: the host's name)")
	playing := addPlayingFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	runtimes, err := playing.parse()
	if err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("ARENA_LADDER_TOKEN")
	}
	if *server == "" || *token == "" || *jobs < 1 {
		return usagef("arena ladder work -server URL -token W [-j N]")
	}
	if err := playing.check(); err != nil {
		return err
	}
	boxSummary(stderr, "arena ladder work")
	if *dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		*dir = filepath.Join(cache, "arena", "ladder-programs")
	}
	if *name == "" {
		*name, _ = os.Hostname()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "arena ladder work: %d at once for %s, as %s\n", *jobs, *server, *name)
	var wg sync.WaitGroup
	for k := range *jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := ladder.Remote{URL: *server, Token: *token, Name: fmt.Sprintf("%s/%d", *name, k+1)}
			playing.player(*dir, runtimes).Serve(ctx, src, 2*time.Second, nil, func(s string) { fmt.Fprintln(stderr, "arena ladder work:", s) })
		}()
	}
	wg.Wait()
	return nil
}

// staffRequest sends a staff's request to the ladder and returns its
// answer, or the ladder's refusal as an error.
func staffRequest(method, server, token, path string, body io.Reader) ([]byte, error) {
	req, err := http.NewRequest(method, strings.TrimSuffix(server, "/")+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err == nil && res.StatusCode/100 != 2 {
		err = fmt.Errorf("the ladder refused it: %s: %s", res.Status, strings.TrimSpace(string(answer)))
	}
	return answer, err
}

// runLadderFreeze closes submissions and starts the final round robin.
func runLadderFreeze(args []string, stdout io.Writer) error {
	fs := newFlags("ladder freeze", stdout)
	server := fs.String("server", "", "the ladder's `URL`")
	token := fs.String("token", "", "the staff's token (or $ARENA_LADDER_TOKEN)")
	rounds := fs.Int("rounds", 2, "rounds of the final round robin: every pair of students, both seats, each round")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("ARENA_LADDER_TOKEN")
	}
	if *server == "" || *token == "" {
		return usagef("arena ladder freeze -server URL -token STAFF [-rounds N]")
	}
	if _, err := staffRequest("POST", *server, *token, "/api/ladder/freeze", strings.NewReader(fmt.Sprintf(`{"rounds":%d}`, *rounds))); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "the ladder is frozen: no version is taken; the final round robin (%s) is queued. When it is played: arena ladder final -server %s -token STAFF -o report.html -csv grades.csv\n", plural.S(*rounds, "round"), *server)
	return nil
}

// runLadderAccommodate gives a student's versions a clock factor.
func runLadderAccommodate(args []string, stdout io.Writer) error {
	fs := newFlags("ladder accommodate", stdout)
	server := fs.String("server", "", "the ladder's `URL`")
	token := fs.String("token", "", "the staff's token (or $ARENA_LADDER_TOKEN)")
	student := fs.String("student", "", "the student's `name`, as the roster has it")
	clock := fs.Float64("clock", 1, fmt.Sprintf("the `factor` their clock is stretched by in every game from now on: 1.5 for half as much time again on each move (1: none; at most %d)", play.MaxClockFactor))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("ARENA_LADDER_TOKEN")
	}
	if *server == "" || *token == "" || *student == "" {
		return usagef("arena ladder accommodate -server URL -token STAFF -student NAME -clock 1.5")
	}
	body, _ := json.Marshal(map[string]any{"student": *student, "clock": *clock})
	if _, err := staffRequest("POST", *server, *token, "/api/ladder/accommodations", bytes.NewReader(body)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s's clock is stretched %gx in every game from now on (kept in each game's replay)\n", *student, *clock)
	return nil
}

// runLadderFinal writes the final round robin's report and its CSV.
func runLadderFinal(args []string, stdout io.Writer) error {
	fs := newFlags("ladder final", stdout)
	server := fs.String("server", "", "the ladder's `URL`")
	token := fs.String("token", "", "the staff's token (or $ARENA_LADDER_TOKEN)")
	out := fs.String("o", "", "the report's `file` (HTML)")
	csvOut := fs.String("csv", "", "the standings as CSV, for grading")
	wait := fs.Bool("wait", false, "wait until the final's games are played (otherwise a final not yet played is refused)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("ARENA_LADDER_TOKEN")
	}
	if *server == "" || *token == "" || *out == "" && *csvOut == "" {
		return usagef("arena ladder final -server URL -token STAFF -o report.html [-csv grades.csv]")
	}
	for _, w := range []struct{ file, path string }{{*out, "/api/ladder/final/report"}, {*csvOut, "/api/ladder/final/csv"}} {
		if w.file == "" {
			continue
		}
		data, err := staffRequest("GET", *server, *token, w.path, nil)
		for *wait && err != nil && strings.Contains(err.Error(), ladder.ErrFinalUnplayed.Error()) {
			fmt.Fprintf(stdout, "%s\n", strings.TrimPrefix(err.Error(), "the ladder refused it: 409 Conflict: "))
			time.Sleep(30 * time.Second)
			data, err = staffRequest("GET", *server, *token, w.path, nil)
		}
		if err != nil {
			return err
		}
		if w.path == "/api/ladder/final/report" {
			// Its links are the server's: made whole, they open where the
			// report is read (the staff signed in on the ladder's page).
			data = bytes.ReplaceAll(data, []byte(`href="/`), []byte(`href="`+strings.TrimSuffix(*server, "/")+`/`))
		}
		if err := os.WriteFile(w.file, data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", w.file)
	}
	return nil
}

// splitList is a comma-separated list's items, trimmed, none empty.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// staffFlags are the flags every staff command takes: the server and
// the staff's token (or $ARENA_LADDER_TOKEN).
func staffFlags(fs *flag.FlagSet) (server, token *string) {
	return fs.String("server", "", "the ladder's `URL`"), fs.String("token", "", "the staff's token (or $ARENA_LADDER_TOKEN)")
}

// runLadderRecheck checks a refused version again.
func runLadderRecheck(args []string, stdout io.Writer) error {
	fs := newFlags("ladder recheck", stdout)
	server, token := staffFlags(fs)
	version := fs.Int64("version", 0, "the version's `id`, as the staff page and the server's log name it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("ARENA_LADDER_TOKEN")
	}
	if *server == "" || *token == "" || *version <= 0 {
		return usagef("arena ladder recheck -server URL -token STAFF -version ID")
	}
	answer, err := staffRequest("POST", *server, *token, fmt.Sprintf("/api/ladder/versions/%d/recheck", *version), strings.NewReader("{}"))
	if err != nil {
		return err
	}
	var v ladder.Version
	json.Unmarshal(answer, &v)
	fmt.Fprintf(stdout, "%s v%d is being checked again (one game against random); it does not count against %s\n", v.Student, v.Number, v.Student)
	return nil
}

// runLadderExport writes the grades for a grade book.
func runLadderExport(args []string, stdout io.Writer) error {
	fs := newFlags("ladder export", stdout)
	server, token := staffFlags(fs)
	format := fs.String("format", "csv", "gradescope (a zip of ID/results.json), canvas, moodle or csv")
	out := fs.String("o", "", "the `file` to write")
	rule := fs.String("grade", "", "the grade rule (default: the server's -grade)")
	maxGrade := fs.Float64("max", 0, "what a grade is out of (default: the server's -max)")
	panel := fs.String("panel", "", "the reference panel's entries, comma-separated (default: the server's -panel)")
	assignment := fs.String("assignment", "", "the grade book's column: an assignment's name (Canvas: \"Name (ID)\" matches assignment ID)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("ARENA_LADDER_TOKEN")
	}
	if *server == "" || *token == "" || *out == "" {
		return usagef("arena ladder export -server URL -token STAFF -format gradescope|canvas|moodle|csv -o FILE")
	}
	if *rule != "" {
		if _, err := ladder.ParseGradeRule(*rule); err != nil {
			return usageError{err}
		}
	}
	q := url.Values{"format": {*format}}
	for k, v := range map[string]string{"grade": *rule, "panel": *panel, "assignment": *assignment} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if *maxGrade > 0 {
		q.Set("max", strconv.FormatFloat(*maxGrade, 'f', -1, 64))
	}
	data, err := staffRequest("GET", *server, *token, "/api/ladder/export?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s)\n", *out, *format)
	return nil
}

// runLadderReport is the process arena ladder serve starts for each
// ladder (ladder.ReportIn): it reports the ladder's games and plays new
// versions' suites until its standard input closes.
func runLadderReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ladder report", stdout)
	dir := fs.String("dir", "", "the ladder's `directory`")
	programs := fs.String("programs", "", "where the versions' programs are unpacked")
	playing := addPlayingFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	runtimes, err := playing.parse()
	if err != nil {
		return err
	}
	if *dir == "" || *programs == "" {
		return usagef("arena ladder report -dir DIR -programs DIR (arena ladder serve starts it)")
	}
	if err := playing.check(); err != nil {
		return err
	}
	st, err := ladder.Open(*dir)
	if err != nil {
		return err
	}
	defer st.Close()
	ladder.ServeReports(st, playing.player(*programs, runtimes), os.Stdin,
		func(s string) { fmt.Fprintln(stderr, "arena ladder report:", s) })
	return nil
}

// playingFlags are the flags of each ladder command that plays versions'
// programs (serve with -j, work, and the reporter serve starts, which is
// given the same): the Python of py: files, the containment asked for,
// and the runtimes a version may start.
type playingFlags struct{ python, containment, runtimes *string }

func addPlayingFlags(fs *flag.FlagSet) playingFlags {
	return playingFlags{
		python:      fs.String("python", "", "the Python that plays py: agent files (default: $ARENA_PYTHON, else python3)"),
		containment: fs.String(box.Flag, "full", "full: refuse to play programs where the kernel cannot keep entrants apart (see docs/limits.md); weak: play them anyway"),
		runtimes:    fs.String("runtimes", ladder.DefaultRuntimes.String(), "the `programs` a version's command may start beside its own files, by name (comma-separated)"),
	}
}

// parse reads the runtimes given.
func (f playingFlags) parse() (ladder.Runtimes, error) {
	r, err := ladder.ParseRuntimes(*f.runtimes)
	if err != nil {
		return nil, usageError{err}
	}
	return r, nil
}

// check refuses a containment the kernel cannot give.
func (f playingFlags) check() error {
	if err := box.Check(*f.containment); err != nil {
		return usageError{err}
	}
	return nil
}

// player plays versions' programs unpacked in dir as the flags say.
func (f playingFlags) player(dir string, runtimes ladder.Runtimes) ladder.Player {
	return ladder.Player{Dir: dir, Hosting: play.Hosting{Python: *f.python}, Runtimes: runtimes}
}

// args are the flags again, for a process started to play as this one.
func (f playingFlags) args() []string {
	return []string{"-python", *f.python, "-runtimes", *f.runtimes, "-" + box.Flag, *f.containment}
}
