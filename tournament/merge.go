package tournament

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"

	"github.com/arena-playground/arena/internal/safefile"
)

// Merge joins the journals of shards (or of any runs of one tournament)
// into out: its plan, without a shard, one journal of every game, and
// every game's replay, copied into out's replays, so that the merged
// directory stands alone (it is what a course keeps with the grades) and
// its journal names only files inside it. Directories of another
// tournament are refused by name; a game recorded in two directories must
// have the same result in both. The standings are those of one run of the
// games.
func Merge(out string, dirs []string) (*Standings, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: give the directories of the runs to join")
	}
	var plan *Plan
	shards := make([]*safefile.Dir, len(dirs))
	defer func() {
		for _, d := range shards {
			if d != nil {
				d.Close()
			}
		}
	}()
	for i, dir := range dirs {
		d, err := safefile.OpenDir(dir, false)
		if err != nil {
			return nil, err
		}
		shards[i] = d
		p, err := loadPlan(d)
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, fmt.Errorf("%s: no %s: not a tournament's directory", dir, PlanFile)
		}
		if plan == nil {
			plan = p
			continue
		}
		if diff := plan.Same(p); diff != "" {
			return nil, fmt.Errorf("%s: another tournament than %s's (%s)", d.Join(PlanFile), dirs[0], diff)
		}
	}
	whole := *plan
	whole.Shard = Shard{}
	od, err := safefile.OpenDir(out, true)
	if err != nil {
		return nil, err
	}
	defer od.Close()
	if old, err := loadPlan(od); err != nil {
		return nil, err
	} else if old != nil && old.Same(&whole) != "" {
		return nil, fmt.Errorf("%s: this directory holds another tournament (%s)", od.Join(PlanFile), old.Same(&whole))
	}
	if err := od.MkdirAll(ReplayDir); err != nil {
		return nil, err
	}
	s := NewStandings(&whole)
	// A game met twice must have the same result: each game's result is
	// kept as a hash, not whole, so that memory stays small.
	seen := map[int]uint64{}
	err = od.WriteFile(JournalFile, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		for _, d := range shards {
			_, dropped, err := readJournal(d, JournalFile, func(e Entry) error {
				h := fnv.New64a()
				h.Write([]byte(mustJSON(e.Result)))
				if old, ok := seen[e.Index]; ok {
					if old != h.Sum64() {
						return fmt.Errorf("game %s is recorded with another result in another directory (here: %s)", e.ID, e.Result)
					}
					return nil
				}
				seen[e.Index] = h.Sum64()
				if err := s.Add(e); err != nil {
					return err
				}
				if e.Replay != "" {
					if err := copyReplay(d, od, e.Replay); err != nil {
						return err
					}
				}
				line, err := json.Marshal(e)
				if err != nil {
					return err
				}
				bw.Write(line)
				return bw.WriteByte('\n')
			})
			if err != nil {
				return err
			}
			if dropped != "" {
				return fmt.Errorf("%s (run it again to finish it before merging)", dropped)
			}
		}
		return bw.Flush()
	})
	if err != nil {
		return nil, err
	}
	if err := savePlan(od, &whole); err != nil {
		return nil, err
	}
	return s, nil
}

// copyReplay copies a game's replay from a run's directory to the
// merged one, under the same name.
func copyReplay(from, to *safefile.Dir, name string) error {
	data, err := from.ReadFile(name)
	if err != nil {
		return err
	}
	return to.WriteFile(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Load reads a tournament's directory: its plan and the standings of its
// journal, streamed, every line checked (a game recorded twice, numbers
// no run writes, a replay outside the directory are refused by line).
func Load(dir string) (*Standings, error) {
	return walk(dir, func(Entry) error { return nil })
}

// Entries streams a directory's journal to f, every line checked as Load
// checks it.
func Entries(dir string, f func(Entry) error) error {
	_, err := walk(dir, f)
	return err
}

// walk reads a directory's plan and streams its journal, each entry
// added to the standings (which checks it) before f sees it.
func walk(dir string, f func(Entry) error) (*Standings, error) {
	d, err := safefile.OpenDir(dir, false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	plan, err := loadPlan(d)
	if err != nil {
		return nil, err
	}
	if plan == nil {
		return nil, fmt.Errorf("%s: no %s: not a tournament's directory", dir, PlanFile)
	}
	s := NewStandings(plan)
	_, _, err = readJournal(d, JournalFile, func(e Entry) error {
		if err := s.Add(e); err != nil {
			return err
		}
		return f(e)
	})
	return s, err
}
