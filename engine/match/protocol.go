package match

import "time"

// Protocol is implemented by games whose players can be programs that
// speak a line protocol on their standard input and output: arena runs
// such programs as players (bot spec "cmd:python3 agent.py"), and runs its
// own bots as such programs (`arena bot`).
type Protocol interface {
	// Request is the line sent before the side to move in s moves; id
	// numbers the requests of a match, limit is the time allowed (0: none).
	Request(s State, id int, limit time.Duration) []byte
	// Reply reads a program's answer and the id it echoes (-1: none).
	Reply(line []byte) (Action, int, error)
	// Final is the line that tells side the game is over, or nil.
	Final(s State, side Side) []byte
	// ParseRequest reads a request into the state it describes, its id
	// and its time limit: what `arena bot` does with each line.
	ParseRequest(line []byte) (State, int, time.Duration, error)
	// WriteReply writes an action as an answer to request id.
	WriteReply(a Action, id int) []byte
}

// Ender is implemented by bots that want to hear the final state (a
// program told the game is over).
type Ender interface {
	End(s State, side Side)
}

// CommandPrefix starts a bot spec that runs a program: "cmd:python3 a.py".
const CommandPrefix = "cmd:"

// Commander is implemented by games whose players can be programs run
// once per move on files, as the course's programs are (map colouring:
// input.txt in, output.txt out). The game makes the bot of a "cmd:" spec.
type Commander interface {
	CommandBot(command string) (Bot, error)
}
