// Package progress is a tournament's progress as data: what a page or a
// window shows of a gauntlet while it plays (the standings so far and the
// games recorded), sent as JSON from the machine that plays it. It holds
// types only, so that the page's program, which draws them, does not carry
// the tournament runner.
package progress

// Status is a tournament's state after a game was recorded.
type Status struct {
	Title  string `json:"title"`
	Played int    `json:"played"` // games recorded, this run's and earlier runs'
	Total  int    `json:"total"`
	// Resumed is how many of the games were recorded by an earlier run
	// (a gauntlet started again after its tab closed).
	Resumed  int       `json:"resumed"`
	Done     bool      `json:"done"`
	Error    string    `json:"error,omitempty"`  // why the run stopped, if it did
	Entrants []Entrant `json:"entrants"`         // best first
	Games    []Game    `json:"games"`            // the latest first, at most MaxGames
	Report   string    `json:"report,omitempty"` // where the report is downloaded
	// Runs are the kept gauntlets of the same bot's game, the latest
	// first, where the bot was written in the page: its versions side by
	// side. Change says in words how the latest finished run compares with
	// the finished one before it.
	Runs   []Run  `json:"runs,omitempty"`
	Change string `json:"change,omitempty"`
	// BotRun says how this run's games play the bot written in the page:
	// built with Go by the page's server, or interpreted and why (the
	// page adds it, as its editor says it of a match).
	BotRun string `json:"bot_run,omitempty"`
}

// Run is one kept gauntlet of a bot written in the page: when it was
// started, on what source, and how the bot stood.
type Run struct {
	Key     string  `json:"key"`
	Started int64   `json:"started"` // Unix milliseconds
	Board   string  `json:"board,omitempty"`
	Pairs   int     `json:"pairs"`
	Played  int     `json:"played"`
	Total   int     `json:"total"`
	Lines   int     `json:"lines"`  // the source's lines
	Digest  string  `json:"digest"` // the source's, short
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	Points  float64 `json:"points"`
	Elo     string  `json:"elo"`
	EloLow  string  `json:"elo_lo"`
	EloHigh string  `json:"elo_hi"`
	// Note says what a person must know of it: stopped before its end
	// (the tab closed, or Stop), or played by a source other than the
	// editor's now.
	Note string `json:"note,omitempty"`
}

// MaxGames bounds the games a Status lists: the report has them all.
const MaxGames = 200

// Entrant is one line of the standings.
type Entrant struct {
	Name     string   `json:"name"`
	Spec     string   `json:"spec"`
	Games    int      `json:"games"`
	Wins     int      `json:"wins"`
	Draws    int      `json:"draws"`
	Losses   int      `json:"losses"`
	Points   float64  `json:"points"`
	Elo      string   `json:"elo"` // "+35", "+inf", "?": maximum likelihood
	EloLow   string   `json:"elo_lo"`
	EloHigh  string   `json:"elo_hi"` // the 95% interval
	Forfeits int      `json:"forfeits"`
	Replaced int      `json:"replaced"`
	Reasons  []string `json:"reasons,omitempty"` // "3x the program did not answer within 2s", most frequent first
	MeanMs   float64  `json:"mean_ms"`           // thinking time per move
}

// Game is one game recorded.
type Game struct {
	ID     string    `json:"id"`
	Seats  [2]string `json:"seats"` // the entrants in P1's and P2's seats
	Result string    `json:"result"`
	Winner int       `json:"winner"` // 0 or 1: the seat; -1: a draw
	Replay string    `json:"replay"` // where its replay is fetched or read
}
