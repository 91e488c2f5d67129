package tournament

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"

	"github.com/arena-playground/arena/internal/atomicfile"
)

// Merge joins the journals of shards (or of any runs of one tournament)
// into out: its plan, without a shard, and one journal of every game, in
// schedule order where each directory had them in order, whose replays
// are named relative to out. Directories of another tournament are
// refused by name; a game recorded in two directories must have the same
// result in both. The standings are those of one run of the games.
func Merge(out string, dirs []string) (*Standings, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: give the directories of the runs to join")
	}
	var plan *Plan
	for _, d := range dirs {
		p, err := loadPlan(d)
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, fmt.Errorf("%s: no %s: not a tournament's directory", d, PlanFile)
		}
		if plan == nil {
			plan = p
			continue
		}
		if diff := plan.Same(p); diff != "" {
			return nil, fmt.Errorf("%s: another tournament than %s's (%s)", filepath.Join(d, PlanFile), dirs[0], diff)
		}
	}
	whole := *plan
	whole.Shard = Shard{}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if old, err := loadPlan(out); err != nil {
		return nil, err
	} else if old != nil && old.Same(&whole) != "" {
		return nil, fmt.Errorf("%s: this directory holds another tournament (%s)", filepath.Join(out, PlanFile), old.Same(&whole))
	}
	s := NewStandings(&whole)
	// A game met twice must have the same result: each game's result is
	// kept as a hash, not whole, so that memory stays small.
	seen := map[int]uint64{}
	err := atomicfile.Write(filepath.Join(out, JournalFile), func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		for _, d := range dirs {
			rel, err := filepath.Rel(out, d)
			if err != nil {
				rel = d
			}
			_, dropped, err := ReadJournal(filepath.Join(d, JournalFile), func(e Entry) error {
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
					e.Replay = filepath.ToSlash(filepath.Join(rel, e.Replay))
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
	if err := savePlan(out, &whole); err != nil {
		return nil, err
	}
	return s, nil
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Load reads a tournament's directory: its plan and the standings of its
// journal, streamed.
func Load(dir string) (*Standings, error) {
	plan, err := loadPlan(dir)
	if err != nil {
		return nil, err
	}
	if plan == nil {
		return nil, fmt.Errorf("%s: no %s: not a tournament's directory", dir, PlanFile)
	}
	s := NewStandings(plan)
	_, _, err = ReadJournal(filepath.Join(dir, JournalFile), s.Add)
	return s, err
}

// Entries streams a directory's journal.
func Entries(dir string, f func(Entry) error) error {
	_, _, err := ReadJournal(filepath.Join(dir, JournalFile), f)
	return err
}
