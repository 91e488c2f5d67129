package match

// Outcome is how a game ended by its rules.
type Outcome struct {
	Winner Side     `json:"winner"` // NoSide for a draw
	Scores [2]Score `json:"scores"` // the game's own score of each side
	Reason string   `json:"reason"` // why, for people: "more live cells"
}
