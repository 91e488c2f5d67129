"""A shortest-path client as the fall-2017 students wrote them, for arena's
tests: the course's client library (connector/client.py, ported from
Python 2 to 3 as it was, with no framing: the game is read until half a
second of silence, each update with one recv(1024)) and its sample clients'
loops (sample/test_client_player.py, test_client_adversary.py), with a
strategy instead of random moves: the player walks its cheapest path at
today's costs, the adversary raises the next edge of that path.

  python3 asp_client.py player|adversary PORT [STYLE [NAME]]

STYLE is "course" (the library as it was) or "buffered" (a proper JSON
decoder over a buffer, as a careful student would write).
"""
import heapq
import json
import socket
import sys


class Client:
    def __init__(self, server_address, server_port, name, player_type):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.connect((server_address, server_port))
        self.send_info(name, player_type)

    def close(self):
        self.socket.close()

    def send_data(self, data):
        self.socket.sendall(json.dumps(data).encode())

    def receive_huge(self):
        all_data = b''
        timeout = self.socket.gettimeout()
        while True:
            try:
                packet = self.socket.recv(1024)
            except socket.timeout:
                break
            all_data += packet
            self.socket.settimeout(0.5)
        self.socket.settimeout(timeout)
        return json.loads(all_data)

    def receive_data(self, size=1024):
        return json.loads(self.socket.recv(size))

    def get_game(self):
        return self.receive_huge()

    def send_info(self, name, player_type):
        self.send_data({'name': name, 'type': player_type})

    def send_edge_move(self, start_node, end_node):
        self.send_data({'start_node': start_node, 'end_node': end_node})
        return self.receive_data()

    def send_cost_update(self, node_1, node_2):
        self.send_data({'node_1': node_1, 'node_2': node_2})
        return self.receive_data()


class BufferedClient(Client):
    """Reads whole JSON values from a buffer, whatever the reads bring."""

    def __init__(self, *args):
        self.buffer = ""
        self.decoder = json.JSONDecoder()
        Client.__init__(self, *args)

    def next_value(self):
        while True:
            text = self.buffer.lstrip()
            if text:
                try:
                    value, end = self.decoder.raw_decode(text)
                    self.buffer = text[end:]
                    return value
                except ValueError:
                    pass
            data = self.socket.recv(65536)
            if not data:
                raise SystemExit("the server closed the connection")
            self.buffer += data.decode()

    def receive_huge(self):
        return self.next_value()

    def receive_data(self, size=1024):
        return self.next_value()


role, port = sys.argv[1], int(sys.argv[2])
style = sys.argv[3] if len(sys.argv) > 3 else "course"
name = sys.argv[4] if len(sys.argv) > 4 else "%s_%s" % (role, style)
make = BufferedClient if style == "buffered" else Client
client = make('127.0.0.1', port, name, 1 if role == "adversary" else 0)
game = client.get_game()
graph = game['graph']
target = game['end_node']
cost = {}
position = game['start_node']


def key(a, b):
    return (a, b) if a < b else (b, a)


def cheapest_path(start):
    dist, prev = {start: 0.0}, {}
    heap = [(0.0, start)]
    while heap:
        d, node = heapq.heappop(heap)
        if node == target:
            break
        if d > dist[node]:
            continue
        for nb in graph[node]:
            nd = d + cost.get(key(node, nb), 1.0)
            if nd < dist.get(nb, float('inf')):
                dist[nb], prev[nb] = nd, node
                heapq.heappush(heap, (nd, nb))
    path, node = [target], target
    while node != start:
        node = prev[node]
        path.append(node)
    return path[::-1]


def heard(update):
    global position
    position = update['position']
    edge = update['edge']
    if isinstance(edge, list) and update.get('new_cost'):
        cost[key(edge[0], edge[1])] = update['new_cost']


if role == "player":
    while True:
        path = cheapest_path(position)
        update = client.send_edge_move(path[0], path[1])
        heard(update)
        if update['done']:
            break
        adversaries_move = client.receive_data()
        heard(adversaries_move)
        if adversaries_move['done']:
            break
else:
    players_move = client.receive_data()
    heard(players_move)
    done = players_move['done']
    while not done:
        path = cheapest_path(position)
        update = client.send_cost_update(path[0], path[1])
        heard(update)
        if update['done']:
            break
        players_move = client.receive_data()
        heard(players_move)
        done = players_move['done']
client.close()
