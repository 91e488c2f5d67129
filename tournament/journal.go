package tournament

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/fileerr"
	"github.com/arena-playground/arena/internal/safefile"
	"github.com/arena-playground/arena/internal/untrusted"
)

// The files of a tournament's directory.
const (
	PlanFile    = "tournament.json"
	JournalFile = "games.jsonl"
	ReplayDir   = "replays"
)

// Entry is one finished game, a line of the journal.
type Entry struct {
	Index  int          `json:"index"` // in the schedule
	ID     string       `json:"id"`
	Seed   uint64       `json:"seed"`
	Seats  [2]string    `json:"seats"` // the entrants in P1's and P2's seats
	Result *play.Result `json:"result"`
	// Moves, ThinkMs and MaxMs are each seat's moves, total and longest
	// thinking time.
	Moves   [2]int     `json:"moves"`
	ThinkMs [2]float64 `json:"think_ms"`
	MaxMs   [2]float64 `json:"max_ms"`
	// Replaced counts each seat's moves the game's rules replaced (a
	// Colosseum random walk), with the first reason.
	Replaced    [2]int    `json:"replaced,omitzero"`
	ReplacedWhy [2]string `json:"replaced_why,omitzero"`
	Replay      string    `json:"replay,omitempty"` // the replay file, relative to the directory holding the journal
}

// maxEntry bounds a journal line: a result and a few numbers.
const maxEntry = 1 << 20

// ReadJournal streams the entries of a journal to f, in the order
// written. A last line cut short (a run killed while writing it) is not
// an entry: ReadJournal returns the offset where it starts, so that the
// caller can drop it, and says so in dropped; a damaged line before the
// last is an error naming the file and the line. A missing file is an
// empty journal.
func ReadJournal(path string, f func(Entry) error) (end int64, dropped string, err error) {
	d, err := safefile.OpenDir(filepath.Dir(path), false)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	defer d.Close()
	return readJournal(d, filepath.Base(path), f)
}

// readJournal reads the journal name of d: a regular file inside it, no
// larger than safefile.MaxFileSize (a link, a pipe or a device is
// refused by name).
func readJournal(d *safefile.Dir, name string, f func(Entry) error) (end int64, dropped string, err error) {
	path := d.Join(name)
	file, err := d.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	defer file.Close()
	r := bufio.NewReaderSize(file, 1<<16)
	for line := 1; ; line++ {
		b, rerr := readLine(r)
		if len(b) == 0 && rerr == io.EOF {
			return end, "", nil
		}
		if rerr != nil && rerr != io.EOF && !errors.Is(rerr, errLongLine) {
			return end, "", fmt.Errorf("%s:%d: %v", path, line, rerr)
		}
		var e Entry
		bad := rerr != nil // cut short, or too long
		if !bad {
			if jerr := json.Unmarshal(b, &e); jerr != nil || e.Result == nil || e.ID == "" {
				bad = true
			}
		}
		if bad {
			if _, perr := r.Peek(1); perr == io.EOF {
				return end, fmt.Sprintf("%s:%d: a damaged last line (a game cut off by a crash) is dropped; its game is played again", path, line), nil
			}
			return end, "", fmt.Errorf("%s:%d: not a journal line (\"%s\"): the journal is damaged before its end", path, line, untrusted.Clip(b))
		}
		if err := f(e); err != nil {
			return end, "", fmt.Errorf("%s:%d: %v", path, line, err)
		}
		end += int64(len(b)) + 1
	}
}

var errLongLine = errors.New("line too long")

// readLine reads one line without its newline; io.EOF with the bytes of
// a last line that has none (cut short).
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxEntry {
			for errors.Is(err, bufio.ErrBufferFull) { // skip to the line's end
				_, err = r.ReadSlice('\n')
			}
			return buf[:64], errLongLine
		}
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			return buf, io.EOF
		default:
			return buf, err
		}
	}
}

// journal appends entries to a journal file. Each line is written as its
// game ends, in one write, so that a killed run (kill -9) loses nothing
// written; a syncer goroutine syncs the file to the disk behind the
// writes, within syncEvery of each, so that no game waits for the disk
// and an operating system's crash loses at most the last moments' games,
// which a rerun plays again.
type journal struct {
	path  string
	f     *os.File
	mu    sync.Mutex
	err   error // the first write or sync error
	dirty chan struct{}
	stop  chan struct{} // closed by close
	done  chan struct{}
}

// syncEvery bounds how long a written line waits to be synced.
const syncEvery = 50 * time.Millisecond

// openJournal opens the journal for appending, after cutting it to end
// (dropping a damaged last line).
func openJournal(d *safefile.Dir, end int64) (*journal, error) {
	path := d.Join(JournalFile)
	f, err := d.OpenAppend(JournalFile)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(end); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	j := &journal{path: path, f: f, dirty: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go j.syncer()
	return j, nil
}

// append writes e's line.
func (j *journal) append(e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	if _, err := j.f.Write(append(line, '\n')); err != nil {
		j.err = fmt.Errorf("%s: %v (the games recorded before stay recorded)", j.path, err)
		return j.err
	}
	select {
	case j.dirty <- struct{}{}:
	default:
	}
	return nil
}

// syncer syncs the file after writes, at most every syncEvery.
func (j *journal) syncer() {
	for {
		_, open := <-j.dirty
		if err := j.f.Sync(); err != nil {
			j.mu.Lock()
			if j.err == nil {
				j.err = fmt.Errorf("%s: %v (the games recorded before stay recorded)", j.path, err)
			}
			j.mu.Unlock()
		}
		if !open {
			close(j.done)
			return
		}
		select { // a pause between syncs, which the end cuts short
		case <-time.After(syncEvery):
		case <-j.stop:
		}
	}
}

// close syncs what is written and closes the file.
func (j *journal) close() error {
	close(j.stop)
	close(j.dirty)
	<-j.done
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.f.Close(); err != nil && j.err == nil {
		j.err = err
	}
	return j.err
}

// loadPlan reads a directory's plan, or nil when it has none.
func loadPlan(d *safefile.Dir) (*Plan, error) {
	path := d.Join(PlanFile)
	data, err := d.ReadFile(PlanFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p Plan
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fileerr.JSONError(path, data, err)
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &p, nil
}

// savePlan writes a directory's plan.
func savePlan(d *safefile.Dir, p *Plan) error {
	return d.WriteFile(PlanFile, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	})
}

// The bounds of a journal line's numbers: what a run can write. A game's
// thinking time is bounded by its clocks, the longest of which is a day a
// move over at most a million moves.
const (
	maxMoves = 1 << 30
	maxMs    = 1e14
)

// check refuses an entry whose numbers no run writes: a journal is read
// back by show, report and the page's server, and may have been written
// by someone else (a rival's program on a shared node, a careless edit).
// Its replay, when it names one, is the file the run writes for the game.
func (e Entry) check(p *Plan, g Game) error {
	if e.Result == nil {
		return errors.New("no result")
	}
	for side := range 2 {
		switch {
		case e.Moves[side] < 0 || e.Moves[side] > maxMoves:
			return fmt.Errorf("moves %d: want 0 to %d", e.Moves[side], maxMoves)
		case e.Replaced[side] < 0 || e.Replaced[side] > e.Moves[side]:
			return fmt.Errorf("replaced %d of %d moves", e.Replaced[side], e.Moves[side])
		case !(e.ThinkMs[side] >= 0 && e.ThinkMs[side] <= maxMs): // NaN fails too
			return fmt.Errorf("think_ms %v: want 0 to %g", e.ThinkMs[side], maxMs)
		case !(e.MaxMs[side] >= 0 && e.MaxMs[side] <= e.ThinkMs[side]+1e-9):
			return fmt.Errorf("max_ms %v of %v in all", e.MaxMs[side], e.ThinkMs[side])
		}
	}
	if e.Replay != "" && e.Replay != replayName(p, g) {
		return fmt.Errorf("replay %q: the run writes %q", untrusted.Text(e.Replay), replayName(p, g))
	}
	return nil
}

// replayName is where the run writes game g's replay, relative to the
// tournament's directory.
func replayName(p *Plan, g Game) string { return ReplayDir + "/" + g.ID(p) + ".json" }
