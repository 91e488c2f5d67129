package players

import (
	"encoding/json"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// Protocol is implemented by games whose players can be programs that
// speak a line protocol on their standard input and output: arena runs
// such programs as players (bot spec "cmd:python3 agent.py"), and runs its
// own bots as such programs (`arena bot`).
type Protocol interface {
	// Request is what is sent to side before it moves in s; id
	// numbers the requests of a match, limit is the time allowed (0: none).
	Request(s match.State, side match.Side, id int, limit time.Duration) []byte
	// Reply reads a program's answer and the id it echoes (-1: none).
	Reply(line []byte) (match.Action, int, error)
	// Final is the line that tells side the game is over, or nil.
	Final(s match.State, side match.Side) []byte
	// ParseRequest reads a request into the state it describes, its id
	// and its time limit: what `arena bot` does with each line.
	ParseRequest(line []byte) (match.State, int, time.Duration, error)
	// WriteReply writes an action as an answer to request id.
	WriteReply(a match.Action, id int) []byte
}

// FileProtocol is implemented by games whose course ran each student's
// program once per move on files (map colouring: input.txt in, output.txt
// out). Package players runs such a program ("cmd:python3 hw2.py") in a
// fresh directory each move: the game says what it reads and reads the
// move from what it wrote, and starts no program itself.
type FileProtocol interface {
	// CourseFiles names the file a program reads and the one it writes,
	// in its working directory, and bounds one run (the course set none;
	// arena must never hang).
	CourseFiles() (input, output string, limit time.Duration)
	// CourseInput is what the program deciding t's move reads.
	CourseInput(t *match.Turn) ([]byte, error)
	// CourseMove reads the move from what the program wrote, given what
	// it read, and may note on t what it makes of the output.
	CourseMove(t *match.Turn, input, output []byte) (match.Action, error)
}

// Greeter is implemented by protocols whose host asks each player for its
// name before the first request (Evasion's "sendname").
type Greeter interface {
	Greeting() []byte
}

// PythonAgents is implemented by games whose course had students write
// their agent as a Python file for the course's own simulator (Colosseum's
// agents/student_agent.py). The game ships a runner: a Python program
// that imports such a file as the simulator did and speaks the game's line
// protocol, so that arena plays the file unchanged ("py:FILE").
type PythonAgents interface {
	// PythonRunner is the runner's file name and source. It takes the
	// agent's file as its one argument, and writes one line before the
	// first request: {"type":"ready",...}, or {"type":"error","error":
	// WHY} when the file cannot play.
	PythonRunner() (name string, source []byte)
}

// Herald is implemented by protocols whose host tells each player its role
// at the start of each game, in a line of its own that asks no answer,
// and pauses around it (Evasion's "hunter" and "prey", with the 2020
// server's sleeps of 1000/60 ms after the role lines and after each game).
// Clients were written against those pauses: many read the role and the
// first state with one recv() each.
type Herald interface {
	// Herald is the line side hears when s starts a game, or nil.
	Herald(s match.State, side match.Side) []byte
	// Pause is how long the host waits after the role lines before the
	// first request, and after each game before the next role line or the
	// final line.
	Pause() time.Duration
}

// ClientMaker is implemented by protocols whose players must remember
// what the host said between requests (Evasion's role lines, its
// "sendname" and "done"). `arena bot` reads the host's lines through a
// Client; other protocols are read request by request (ParseRequest).
type ClientMaker interface {
	NewClient(name string) match.Client
}

// NewClient returns the player's end of proto, which gives name when the
// host asks: the protocol's own client, or one that reads every line as a
// request (ParseRequest) but the JSON end message.
func NewClient(proto Protocol, name string) match.Client {
	if cm, ok := proto.(ClientMaker); ok {
		return cm.NewClient(name)
	}
	return requestClient{proto}
}

// requestClient reads a protocol whose every line is a request, or the
// JSON end message {"type": "end", ...}.
type requestClient struct{ proto Protocol }

func (c requestClient) Hear(line []byte) (match.Heard, error) {
	var kind struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &kind) == nil && kind.Type == "end" {
		return match.Heard{Done: true}, nil
	}
	s, id, limit, err := c.proto.ParseRequest(line)
	if err != nil {
		return match.Heard{}, err
	}
	return match.Heard{State: s, Side: s.ToMove().Side(), ID: id, Limit: limit}, nil
}

// Reseeder is implemented by states that carry a random stream of their
// own (Colosseum's NumPy stream, which its random bot and random walk
// draw from). A state read from a request has no stream of the match's;
// `arena bot` gives it one from the session's source.
type Reseeder interface {
	Reseed(seed uint64) match.State
}

// SessionProtocol is implemented by games whose network players speak as
// the 2017 shortest-path server had them: a client connects for one game,
// says hello first (its role), gets the game's opening, and then hears the
// update of every move, its opponent's too; it moves when the updates say
// it is its turn. Messages are bare JSON values with no framing. Both
// sides may share one port, the roles coming from the first client's
// hello, as on the original server.
type SessionProtocol interface {
	// Frame splits the byte stream into messages (a bufio.SplitFunc).
	Frame(data []byte, atEOF bool) (int, []byte, error)
	// Hello reads a client's first message: the role it asks for.
	Hello(msg []byte) (role int, name string, err error)
	// RoleOf is side's role in the game s is in.
	RoleOf(s match.State, side match.Side) int
	// RoleName names a role, as a program started for it is told
	// ("tcp:cmd:python3 {role}.py {port}").
	RoleName(role int) string
	// Opening is what both clients hear when a game starts.
	Opening(s match.State) []byte
	// Notice is what both clients hear after the move that led to s (for
	// a state that starts a new game, the last move of the one before),
	// and whether it ended a game: the clients then leave.
	Notice(s match.State) ([]byte, bool)
	// Message reads a client's move.
	Message(msg []byte) (match.Action, error)
}

// RoleClientMaker is implemented by protocols whose clients choose their
// role when they connect (the shortest-path server's hello).
type RoleClientMaker interface {
	NewRoleClient(name, role string) (match.Client, error)
}

// Helloer is implemented by clients that speak first.
type Helloer interface {
	Hello() []byte
}
