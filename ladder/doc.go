// Package ladder is a course's class ladder: students submit versions of
// their bot all term, games between the latest versions run without end,
// and everyone sees where they stand, with Bradley-Terry ratings and
// their intervals fitted over every game, as arena tournament fits them.
//
// One process serves it (arena ladder serve): the pages and the API, the
// scheduler, and, with -j N, games on its own machine; workers elsewhere
// (arena ladder work) lease games over HTTP, play them in boxes and send
// the results back. Its state is an SQLite database in the ladder's
// directory (modernc.org/sqlite: pure Go, so arena stays free of cgo),
// written in transactions in WAL mode with full syncs: kill -9 at any
// moment loses no accepted submission and no finished game.
//
// The pieces, a file each:
//   - store.go: the database, its schema and its transactions;
//   - roster.go: the students, and their tokens, stored hashed;
//   - upload.go: a submission read and bounded, kept as a tar archive of
//     checked names, unpacked only into directories arena names;
//   - rating.go: the sparse Bradley-Terry fit;
//   - schedule.go: which games to play next;
//   - standings.go: the leaderboard and a student's page, as data;
//   - server.go, pages.go: HTTP;
//   - worker.go: leasing and playing games.
package ladder
