"""arena's runner for Colosseum Survival agents written for the McGill
COMP 424 course simulator (Fall 2023), played unchanged.

    python3 agentrunner.py path/to/agents/student_agent.py

It gives the agent's file what the course repository gives it, the modules
`agents.agent` (the Agent base class) and `store` (register_agent), imports
the file as the simulator would, makes the agent it registers and answers
arena's JSON-lines protocol on its standard input and output:

    arena -> runner  {"type":"step","id":k,"board_size":N,"max_step":K,
                      "my_pos":[r,c],"adv_pos":[r,c],"walls":[[[u,r,d,l],...],...],...}
    runner -> arena  {"id":k,"pos":[r,c],"dir":d}
                  or {"id":k,"error":"ValueError: ... (student_agent.py:42)"}
    arena -> runner  {"type":"end",...}, then the end of its input

Before the first step it writes one line, {"type":"ready",...} or
{"type":"error","error":...}: the file failed to import, registers no
agent, or NumPy is missing. The agent's step gets what the simulator's
World.step gives it: a deep copy of the board as an N x N x 4 NumPy bool
array, its position and the opponent's as tuples of NumPy integers, and
max_step. Whatever the agent prints goes to standard error, so that its
debugging output never mixes with the protocol. arena keeps the clock
(30 s for the first move, 2 s after) and plays the course's random walk
for a late or broken move, as the course did.
"""

import importlib.util
import json
import os
import sys
import traceback
import types

AGENT_SRC = '''
class Agent:
    def __init__(self):
        """
        Initialize the agent, add a name which is used to register the agent
        """
        self.name = "DummyAgent"
        # Flag to indicate whether the agent can be used to autoplay
        self.autoplay = True

    def __str__(self) -> str:
        return self.name

    def step(self, chess_board, my_pos, adv_pos, max_step):
        pass
'''

STORE_SRC = '''
AGENT_REGISTRY = {}

# define decorator for registering game agents
def register_agent(agent_name=""):
    def decorator(func):
        if agent_name not in AGENT_REGISTRY:
            AGENT_REGISTRY[agent_name] = func
        else:
            raise AssertionError(
                f"Agent {AGENT_REGISTRY[agent_name]} is already registered."
            )
        return func

    return decorator
'''

CONSTANTS_SRC = '''
MIN_BOARD_SIZE = 6
MAX_BOARD_SIZE = 12
AGENT_NOT_FOUND_MSG = (
    "Check if you have used the decorator @register_agent to register your agent!"
)
DIRECTION_UP = 0
DIRECTION_UP_NAME = "Up"
DIRECTION_RIGHT = 1
DIRECTION_RIGHT_NAME = "Right"
DIRECTION_DOWN = 2
DIRECTION_DOWN_NAME = "Down"
DIRECTION_LEFT = 3
DIRECTION_LEFT_NAME = "Left"
PLAYER_1_ID = 0
PLAYER_2_ID = 1
PLAYER_1_NAME = "A"
PLAYER_2_NAME = "B"
PLAYER_1_COLOR = "tab:blue"
PLAYER_2_COLOR = "tab:brown"
'''


def module(name, source):
    m = types.ModuleType(name)
    exec(compile(source, "<arena: the course's " + name.replace(".", "/") + ".py>", "exec"), m.__dict__)
    sys.modules[name] = m
    return m


def where(exc, path):
    """The line of the agent's file where exc was raised, if it was."""
    if isinstance(exc, SyntaxError) and exc.lineno:
        return "%s:%d" % (os.path.basename(exc.filename or path), exc.lineno)
    last = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.abspath(frame.filename) == path:
            last = frame
    if last is None:
        return ""
    return "%s:%d" % (os.path.basename(path), last.lineno)


def describe(exc, path):
    message = exc.msg if isinstance(exc, SyntaxError) else exc
    text = "%s: %s" % (type(exc).__name__, message)
    at = where(exc, path)
    if at:
        text += " (" + at + ")"
    return text


class Protocol:
    def __init__(self):
        # The protocol keeps the real standard output; everything else
        # written there, by Python or by C code, goes to standard error.
        self.out = os.fdopen(os.dup(1), "w", buffering=1)
        os.dup2(2, 1)

    def send(self, obj):
        # What the agent printed goes before what is sent: standard
        # output, now standard error's descriptor, is block-buffered
        # unless the environment says otherwise (PYTHONUNBUFFERED, which a
        # program's box does not pass on).
        sys.stdout.flush()
        sys.stderr.flush()
        self.out.write(json.dumps(obj) + "\n")
        self.out.flush()


def load(path, proto):
    """Import the agent's file and make its agent, or say why not."""
    try:
        import numpy
    except ImportError:
        proto.send({"type": "error", "host": True, "error": "NumPy is not installed for %s (Python %s): install it (python3 -m pip install numpy, or apt-get install python3-numpy), or name a Python that has it with -python or ARENA_PYTHON"
                    % (sys.executable, sys.version.split()[0])})
        return None
    if not os.path.isfile(path):
        proto.send({"type": "error", "error": "%s: no such file" % path})
        return None
    folder = os.path.dirname(path)
    root = os.path.dirname(folder) if os.path.basename(folder) == "agents" else folder
    sys.path[:0] = [root, folder]
    store = module("store", STORE_SRC)
    agents = types.ModuleType("agents")
    agents.__path__ = [folder]  # the agent's neighbours import as agents.<name>
    sys.modules["agents"] = agents
    agents.agent = module("agents.agent", AGENT_SRC)
    agents.Agent = agents.agent.Agent
    if importlib.util.find_spec("constants") is None:
        module("constants", CONSTANTS_SRC)
    name = "agents." + os.path.splitext(os.path.basename(path))[0]
    before = set(store.AGENT_REGISTRY)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    except BaseException as e:
        proto.send({"type": "error", "error": "%s: %s" % (path, describe(e, path))})
        return None
    new = [n for n in store.AGENT_REGISTRY if n not in before]
    if "student_agent" in new:
        chosen = "student_agent"
    elif len(new) == 1:
        chosen = new[0]
    elif not new:
        proto.send({"type": "error", "error": '%s registers no agent: decorate its class with @register_agent("student_agent"), as the course\'s template does' % path})
        return None
    else:
        proto.send({"type": "error", "error": "%s registers %d agents (%s): keep one, or name one student_agent" % (path, len(new), ", ".join(new))})
        return None
    try:
        agent = store.AGENT_REGISTRY[chosen]()
    except BaseException as e:
        proto.send({"type": "error", "error": "%s: making %s: %s" % (path, chosen, describe(e, path))})
        return None
    proto.send({"type": "ready", "agent": chosen, "class": type(agent).__name__,
                "python": sys.version.split()[0], "numpy": numpy.__version__})
    return agent


def step(agent, msg, path):
    import numpy as np
    from copy import deepcopy
    board = np.array(msg["walls"], dtype=bool).reshape(msg["board_size"], msg["board_size"], 4)
    my_pos = tuple(np.asarray(msg["my_pos"], dtype=np.int64))
    adv_pos = tuple(np.asarray(msg["adv_pos"], dtype=np.int64))
    max_step = np.int64(msg["max_step"])
    try:
        pos, d = agent.step(deepcopy(board), my_pos, adv_pos, max_step)
        pos = np.asarray(pos, dtype=np.int64).ravel()
        if pos.shape != (2,):
            raise ValueError("step returned the position %r: want (row, column)" % (pos.tolist(),))
        return {"id": msg.get("id"), "pos": [int(pos[0]), int(pos[1])], "dir": int(d)}
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        return {"id": msg.get("id"), "error": "the agent's step raised " + describe(e, path)}


def main():
    proto = Protocol()
    if len(sys.argv) != 2:
        proto.send({"type": "error", "error": "usage: agentrunner.py AGENT_FILE"})
        return 2
    path = os.path.abspath(sys.argv[1])
    agent = load(path, proto)
    if agent is None:
        return 1
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            print("arena's runner: a line that is not JSON: %.80s" % line, file=sys.stderr)
            continue
        if msg.get("type") == "step":
            proto.send(step(agent, msg, path))
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # threads the agent left running must not hold the game
