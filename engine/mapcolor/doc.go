// Package mapcolor is the adversarial map-colouring game of USC CSCI 561
// (Summer 2017, Homework 2, "Adversarial Constraint Satisfaction by
// Game-tree Search"). Two players take turns colouring states next to
// coloured ones, each colour allowed where no coloured neighbour has it
// (plain forward checking); each colour is worth a weight to the player
// who uses it, and Player 1 maximises Score(P1) - Score(P2) while Player 2
// minimises it.
//
// Solve writes the course's output.txt for an input.txt byte for byte:
// the alpha-beta trace, expanded in ASCII order of state then colour, and
// the best move (rules/csp.md). The playground plays whole games on the
// course's maps, Australia, the contiguous United States and random
// Voronoi maps, and shows each decision's search tree as it grows.
package mapcolor
