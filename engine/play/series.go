package play

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/arena-playground/arena/engine/match"
	"io"
	"math"
	"runtime"
	"sync"
	"time"
)

// Series is a run of games between two bots, A and B, with sides
// alternated: in game i (from 0), A plays P1 when i is even. Game i uses
// seed Seed+i, so every game of a series can be replayed alone.
type Series struct {
	Game   match.Game
	Config match.Config // nil: the game's default
	// Configs, when set, gives the config of game i as Configs(i, seed);
	// it overrides Config (Colosseum draws board sizes per game).
	Configs func(i int, seed uint64) match.Config
	Seed    uint64
	Games   int
	Bots    [2]Spec // A, B
	Jobs    int     // games played at once; 0: one per core
	// ClockAll puts built-in bots under the game's clock too (see Setup).
	ClockAll bool
	// Progress, when set, is called after each game with the count done.
	Progress func(done, total int)
	// Log is each game's Setup.Log, and Said its Setup.Said.
	Log, Said io.Writer
	// Hosting is how the games' programs run (-python, -caps).
	Hosting Hosting
}

// GameSummary is one game of a series.
type GameSummary struct {
	Index  int        `json:"index"`
	Seed   uint64     `json:"seed"`
	ASide  match.Side `json:"a_side"`
	Result *Result    `json:"result"`
	Err    string     `json:"error,omitempty"`
	// Replacements: a series that ends well can still hide a bot that
	// failed.
	Replacements
}

// BotStats sums up one bot over a series.
type BotStats struct {
	Spec       string        `json:"bot"`
	Wins       int           `json:"wins"`
	Draws      int           `json:"draws"`
	Losses     int           `json:"losses"`
	Points     float64       `json:"points"`
	Score      float64       `json:"score"`    // points per game
	ScoreLow   float64       `json:"score_lo"` // 95% confidence interval of Score
	ScoreHigh  float64       `json:"score_hi"`
	Forfeits   int           `json:"forfeits"`
	Replaced   int           `json:"replaced"` // moves the game's rules replaced
	Moves      int           `json:"moves"`
	ThinkTotal time.Duration `json:"-"`
	ThinkMax   time.Duration `json:"-"`
	AvgMs      float64       `json:"avg_ms"` // mean thinking time per move
	MaxMs      float64       `json:"max_ms"` // longest thinking time of a move
	AvgDepth   float64       `json:"avg_depth,omitzero"`
	// Own is the game's own score of this bot over the games that ended
	// (Evasion: the tick its prey was caught, so the other side's hunting
	// time; the shortest-path game: what it paid as player).
	Own      Spread `json:"own"`
	depthSum int64
	depthN   int64
}

// Spread is the mean, least and most of a series of numbers.
type Spread struct {
	Mean, Min, Max float64
	N              int
	sum            float64
}

// MarshalJSON writes infinite figures (a shortest-path player that never
// arrived paid +Inf) as Score does.
func (s Spread) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Mean match.Score `json:"mean"`
		Min  match.Score `json:"min"`
		Max  match.Score `json:"max"`
		N    int         `json:"n"`
	}{match.Cost(s.Mean), match.Cost(s.Min), match.Cost(s.Max), s.N})
}

// Add counts x in.
func (s *Spread) Add(x float64) {
	if s.N == 0 || x < s.Min {
		s.Min = x
	}
	if s.N == 0 || x > s.Max {
		s.Max = x
	}
	s.N++
	s.sum += x
	s.Mean = s.sum / float64(s.N)
}

// SeriesResult is the outcome of a series.
type SeriesResult struct {
	Game  string        `json:"game"`
	Games int           `json:"games"`
	Seed  uint64        `json:"seed"`
	Bots  [2]BotStats   `json:"bots"`
	Log   []GameSummary `json:"log"`
	Wall  time.Duration `json:"-"`
}

// Run plays the series on Jobs goroutines. Games that fail to start (a bad
// config) are logged with their error; a cancelled context stops the run,
// and so does a bot that cannot start (a StartError: an agent file with a
// Python error would fail every game alike), whose error Run returns.
func (s Series) Run(ctx context.Context) (*SeriesResult, error) {
	jobs := s.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	for _, b := range s.Bots {
		if b.Addr != "" {
			jobs = 1 // one game at a time can listen on a given port
		}
	}
	res := &SeriesResult{Game: s.Game.Info().Name, Games: s.Games, Seed: s.Seed, Log: make([]GameSummary, s.Games),
		Bots: [2]BotStats{{Spec: s.Bots[0].String()}, {Spec: s.Bots[1].String()}}}
	start := time.Now()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	var unstarted error
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				g, rec, err := s.play(ctx, i)
				mu.Lock()
				if se := (*StartError)(nil); errors.As(err, &se) && unstarted == nil {
					unstarted = err
					stop()
				}
				res.Log[i] = g
				res.tally(g, rec)
				done++
				if s.Progress != nil {
					s.Progress(done, s.Games)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range s.Games {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if unstarted != nil {
		return nil, unstarted
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Wall = time.Since(start)
	for i := range res.Bots {
		res.Bots[i].finish(s.Games)
	}
	return res, nil
}

// play plays game i of the series, and says why it could not.
func (s Series) play(ctx context.Context, i int) (GameSummary, *Record, error) {
	seed := s.Seed + uint64(i)
	g := GameSummary{Index: i, Seed: seed, ASide: match.P1}
	players := s.Bots
	if i%2 == 1 {
		g.ASide = match.P2
		players[0], players[1] = players[1], players[0]
	}
	cfg := s.Config
	if s.Configs != nil {
		cfg = s.Configs(i, seed)
	}
	rec, err := Play(ctx, Setup{Game: s.Game, Config: cfg, Seed: seed, Players: players, ClockAll: s.ClockAll, Log: s.Log, Said: s.Said, Hosting: s.Hosting})
	if err != nil {
		g.Err = err.Error()
		return g, nil, err
	}
	g.Result, g.Replacements = rec.Result, rec.Replacements()
	return g, rec, nil
}

// tally adds one game to the bots' statistics.
func (r *SeriesResult) tally(g GameSummary, rec *Record) {
	if g.Result == nil {
		return
	}
	for bot := range 2 {
		side := g.ASide
		if bot == 1 {
			side = side.Other()
		}
		b := &r.Bots[bot]
		switch g.Result.Winner {
		case side:
			b.Wins++
		case match.NoSide:
			b.Draws++
		default:
			b.Losses++
		}
		b.Points += g.Result.Points(side)
		b.Own.Add(g.Result.Scores[side].Float())
		for _, f := range g.Result.Forfeits {
			if f.Side == side {
				b.Forfeits++
			}
		}
		b.Replaced += g.Replaced[side]
		for _, t := range rec.Turns {
			if t.Actions[side] == nil && t.Think[side] == 0 {
				continue
			}
			b.Moves++
			b.ThinkTotal += t.Think[side]
			b.ThinkMax = max(b.ThinkMax, t.Think[side])
			if n := t.Notes[side].Get(); n != nil && n.Depth > 0 {
				b.depthSum += int64(n.Depth)
				b.depthN++
			}
		}
	}
}

func (b *BotStats) finish(games int) {
	if games > 0 {
		b.Score = b.Points / float64(games)
		b.ScoreLow, b.ScoreHigh = Wilson(b.Points, float64(games))
	}
	if b.Moves > 0 {
		b.AvgMs = float64(b.ThinkTotal) / float64(b.Moves) / float64(time.Millisecond)
	}
	b.MaxMs = float64(b.ThinkMax) / float64(time.Millisecond)
	if b.depthN > 0 {
		b.AvgDepth = float64(b.depthSum) / float64(b.depthN)
	}
}

// Wilson returns the 95% Wilson score interval of a proportion of
// successes out of n trials (draws count as half a success). Unlike the
// normal approximation it stays inside [0, 1] and does not collapse to a
// point when every game is won.
func Wilson(successes, n float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := successes / n
	den := 1 + z*z/n
	centre := (p + z*z/(2*n)) / den
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / den
	return max(0, centre-half), min(1, centre+half)
}
