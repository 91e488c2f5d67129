// Package players holds the kinds of player that are programs outside
// arena: the students' programs of each course, played unchanged, as the
// course servers played them. Each kind registers itself with
// [play.RegisterKind], as an image format registers with
// image.RegisterFormat; a front end imports this package for its effect,
// and a new kind is a new file here. The match loop in package match knows
// none of them: it asks a kind for a [match.Bot] and plays it as any other.
//
// The kinds, with one spec each:
//
//	cmd:python3 agent.py                a program on its standard input and output,
//	                                    speaking the game's line protocol (Life,
//	                                    Evasion, Colosseum), or run once per move
//	                                    on input.txt and output.txt (map colouring)
//	tcp::9000                           a client that the person starts, which
//	                                    connects to port 9000 (Evasion, the shortest
//	                                    path, Life), as students' clients connected
//	                                    to the course servers
//	tcp:cmd:python3 client.py {port}    the same client, started by arena on a
//	                                    free loopback port for each game ({host},
//	                                    {port}, {role}); only the program started
//	                                    may take the seat
//	tcp:pace=off::9000                  options first: how what a client hears is
//	                                    spaced (the shortest path's pacing)
//	py:agents/student_agent.py          a Colosseum agent file written for the
//	                                    McGill course's simulator, played through
//	                                    an embedded Python runner
//	go:mybot.go                         a bot written in Go against arena's bot API
//	                                    (arena template -game G prints one),
//	                                    interpreted by package gobot/interp in a
//	                                    child process: arena's own binary
//	served:mine                         a program the machine offers by name (the
//	                                    page's server's and the desktop's -player
//	                                    GAME/NAME=SPEC): what a page or a link may
//	                                    name, never a command
//
// What a program writes for people (its standard error) is shown as it
// comes to whoever runs the match, and kept in each move's note.
//
// Every program arena starts leads a process group of its own, which ends
// with its game, on Ctrl-C and when arena itself ends; what a program
// writes reaches a person quoted (package internal/untrusted), never raw.
// In the browser no program can play: the kinds are known there, so that a
// spec says why it cannot play, but their players refuse.
package players

// The names of the kinds, as their specs start.
const (
	Command = "cmd" // a program on stdin and stdout
	Network = "tcp" // a client that connects to arena
	Agent   = "py"  // a Colosseum agent file
)
