"""An Evasion client as the fall-2020 students wrote them (Python 3 here),
for arena's tests: it connects to the server's port, answers sendname, and
plays the hunter and the prey in turn. How it reads the socket is the point:

  first     one recv(4096) per message, keeping its first line
  last      the course's sample client (players/random_player.py): keep
            the last complete line of what has been read
  whole     one recv(4096) per message, parsed whole
  buffered  a proper line buffer (the socket's makefile)
  twice     buffered, after trying a second connection (it must be refused,
            or reset unserved when the server stops listening)

The first three work only when each message arrives in a read of its own,
as the 2020 server wrote them: the role line, then 1000/60 ms later the
first state.

  python3 evasion_client.py PORT STYLE [NAME]
"""
import socket
import sys

port, style = int(sys.argv[1]), sys.argv[2]
name = sys.argv[3] if len(sys.argv) > 3 else "student_" + style

sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
sock.connect(("127.0.0.1", port))
if style == "twice":
    # Refused, or (on a busy machine the kernel may complete the handshake
    # before the server stops listening) reset unserved when it does.
    try:
        second = socket.create_connection(("127.0.0.1", port), timeout=5)
        try:
            data = second.recv(100)
        except ConnectionResetError:
            data = b""
        except socket.timeout:
            sys.exit("a second connection was held open")
        if data:
            sys.exit("a second connection was served: %r" % data)
    except (ConnectionRefusedError, ConnectionResetError):
        # Refused, or reset while connecting: the server stopped
        # listening between the handshake's packets.
        pass
    style = "buffered"
stream = ""
reader = sock.makefile("r")


def receive():
    global stream
    if style == "first":
        data = sock.recv(4096).decode()
        if not data:
            sys.exit("the server closed the connection")
        return data.split("\n")[0]
    if style == "whole":
        data = sock.recv(4096).decode()
        if not data:
            sys.exit("the server closed the connection")
        return data.strip()
    if style == "last":
        while True:
            data = sock.recv(4096).decode()
            if not data:
                sys.exit("the server closed the connection")
            stream = stream + data
            lines = stream.split("\n")
            if len(lines) > 1:
                stream = lines[-1]
                return lines[-2]
    line = reader.readline()
    if not line:
        sys.exit("the server closed the connection")
    return line.rstrip("\n")


def sign(v):
    return (v > 0) - (v < 0)


def hunter_reply(v):
    game, tick, max_walls, delay = v[0], v[1], v[2], v[3]
    timer, hx, hy, px, py, n = v[6], v[7], v[8], v[11], v[12], v[13]
    dx, dy = px - hx, py - hy
    wall, delete = 0, []
    if timer == 0 and abs(dx) + abs(dy) < 40:
        if n >= max_walls:
            delete = [0]  # the oldest wall makes room
        wall = 1 if abs(dy) < abs(dx) else 2  # across the prey's way out
    return " ".join(str(x) for x in [game, tick, wall] + delete)


def prey_reply(v):
    game, tick, hx, hy, px, py = v[0], v[1], v[7], v[8], v[11], v[12]
    if abs(px - hx) + abs(py - hy) > 60:
        return "%d %d 0 0" % (game, tick)
    mx, my = sign(px - hx) or 1, sign(py - hy) or 1
    if px + mx in (0, 299):
        mx = -mx
    if py + my in (0, 299):
        my = -my
    return "%d %d %d %d" % (game, tick, mx, my)


hunter = None
while True:
    line = receive()
    if line == "done":
        break
    if line == "sendname":
        sock.sendall((name + "\n").encode())
    elif line == "hunter":
        hunter = True
    elif line == "prey":
        hunter = False
    else:
        v = [int(x) for x in line.split()][1:]  # "whole" crashes here on a role line glued to a state
        if hunter is None:
            sys.exit("a state before the role line: " + line[:40])
        reply = hunter_reply(v) if hunter else prey_reply(v)
        sock.sendall((reply + "\n").encode())
sock.close()
