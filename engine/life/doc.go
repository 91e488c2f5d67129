// Package life is the AI Battleground of BEST Zagreb 2015: two-player
// Conway's Life on a torus. Each turn both players colonise dead cells near
// their own live cells, paying from a bank that refills every turn, then
// the whole board steps one generation under the "diff" rule, in which a
// cell's fate depends on its own minus its enemy's neighbours. After the
// last iteration the side with more live cells wins.
//
// The rules are those of the original Java code (rules/gconway.md), with
// the playground's decisions: collisions cancel (the original variant keeps
// the code's rule, under which P2 takes a contested cell) and an invalid
// action or a timeout forfeits the game instead of aborting it. Every
// golden trace recorded from the original replays exactly (see Conform).
//
// The board is bit-parallel (Board.Step: 64 cells per word, both players
// at once); Board.StepReference is the plain per-cell oracle it is tested
// against. Bots: random (the original sample bots, always legal), greedy
// (one-step lookahead) and strong (a search several generations deep).
package life
