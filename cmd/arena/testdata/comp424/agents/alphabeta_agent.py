# Student agent: Add your own agent here
#
# An agent as a COMP 424 student writes it in the course's template (this
# file is arena's own test fixture): alpha-beta over (walk, wall) moves,
# iterative deepening under a time check, scored by the squares each
# player reaches first. It imports only what the template imports.
from agents.agent import Agent
from store import register_agent
import sys
import numpy as np
from copy import deepcopy
import time
from collections import deque

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))
OPPOSITE = {0: 2, 1: 3, 2: 0, 3: 1}


@register_agent("alphabeta_agent")
class AlphaBetaAgent(Agent):
    def __init__(self):
        super(AlphaBetaAgent, self).__init__()
        self.name = "AlphaBetaAgent"
        self.autoplay = True
        self.budget = 0.25  # seconds a move: well inside the course's 2 s

    def reachable(self, board, start, adv, max_step):
        """Squares start can walk to in at most max_step steps, not through adv."""
        seen = {start: 0}
        q = deque([start])
        while q:
            cur = q.popleft()
            if seen[cur] == max_step:
                continue
            r, c = cur
            for d, (dr, dc) in enumerate(MOVES):
                if board[r, c, d]:
                    continue
                nxt = (r + dr, c + dc)
                if nxt == adv or nxt in seen:
                    continue
                seen[nxt] = seen[cur] + 1
                q.append(nxt)
        return seen.keys()

    def moves(self, board, me, adv, max_step):
        out = []
        for pos in self.reachable(board, me, adv, max_step):
            r, c = pos
            for d in range(4):
                if not board[r, c, d]:
                    out.append((pos, d))
        return out

    def place(self, board, pos, d):
        r, c = pos
        board[r, c, d] = True
        dr, dc = MOVES[d]
        board[r + dr, c + dc, OPPOSITE[d]] = True

    def unplace(self, board, pos, d):
        r, c = pos
        board[r, c, d] = False
        dr, dc = MOVES[d]
        board[r + dr, c + dc, OPPOSITE[d]] = False

    def distances(self, board, start):
        n = board.shape[0]
        dist = np.full((n, n), -1, dtype=int)
        dist[start] = 0
        q = deque([start])
        while q:
            r, c = q.popleft()
            for d, (dr, dc) in enumerate(MOVES):
                if board[r, c, d]:
                    continue
                if dist[r + dr, c + dc] < 0:
                    dist[r + dr, c + dc] = dist[r, c] + 1
                    q.append((r + dr, c + dc))
        return dist

    def evaluate(self, board, me, adv):
        """(game over, score from me's side): territory, or the result."""
        dm = self.distances(board, me)
        if dm[adv] < 0:
            da = self.distances(board, adv)
            mine, theirs = int((dm >= 0).sum()), int((da >= 0).sum())
            return True, 1000 * np.sign(mine - theirs)
        da = self.distances(board, adv)
        closer = (dm >= 0) & ((dm < da) | (da < 0))
        farther = (da >= 0) & ((da < dm) | (dm < 0))
        return False, int(closer.sum()) - int(farther.sum())

    def search(self, board, me, adv, max_step, depth, alpha, beta):
        if time.time() > self.deadline:
            raise TimeoutError
        over, score = self.evaluate(board, me, adv)
        if over or depth == 0:
            return score, None
        best, best_move = -10**9, None
        for pos, d in self.moves(board, me, adv, max_step):
            self.place(board, pos, d)
            try:
                value, _ = self.search(board, adv, pos, max_step, depth - 1, -beta, -alpha)
            finally:
                self.unplace(board, pos, d)
            value = -value
            if value > best:
                best, best_move = value, (pos, d)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best, best_move

    def step(self, chess_board, my_pos, adv_pos, max_step):
        start_time = time.time()
        self.deadline = start_time + self.budget
        board = deepcopy(chess_board)
        me, adv = tuple(int(x) for x in my_pos), tuple(int(x) for x in adv_pos)
        # A move to fall back on: the wall that keeps most territory now.
        best = max(self.moves(board, me, adv, max_step), key=lambda m: self.one_ply(board, m, adv))
        depth = 1
        while depth <= 3:
            try:
                _, move = self.search(board, me, adv, max_step, depth, -10**9, 10**9)
            except TimeoutError:
                break
            if move is not None:
                best = move
            depth += 1
        time_taken = time.time() - start_time
        print("My AI's turn took ", time_taken, "seconds.")
        return best[0], best[1]

    def one_ply(self, board, move, adv):
        pos, d = move
        self.place(board, pos, d)
        _, score = self.evaluate(board, pos, adv)
        self.unplace(board, pos, d)
        return score
