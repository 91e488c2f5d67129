# A hostile entrant, written as a student writes Python: it tries each
# way out of its box that arena's box must close, and prints one line
# each: "NAME: reached ..." when the attempt got through, "NAME: refused
# ..." when the system refused it. Its targets come as one JSON argument.
import ctypes
import errno
import json
import os
import socket
import sys

t = json.loads(sys.argv[1])
t["own_file"] = sys.argv[0]  # its program, as it was given it
libc = ctypes.CDLL(None, use_errno=True)


def report(name, fn):
    try:
        got = fn()
        print(f"{name}: reached {got!r}"[:300], flush=True)
    except Exception as e:  # the refusal, as the program sees it
        print(f"{name}: refused {type(e).__name__}: {e}"[:300], flush=True)


def call(ret):
    if ret == -1:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return ret


def read(path):
    with open(path, "rb") as f:
        return f.read(40)


def write(path):
    with open(path, "a") as f:
        f.write("pwned\n")
    return "written"


def processes():
    others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) > 50]
    return others


def environ_secret():
    hits = [k for k, v in os.environ.items() if t["secret_value"] in v]
    if hits:
        return hits
    raise PermissionError("no secret in the environment")


def seen_in_proc():
    hits = []
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) == t["sentinel"]:
            hits.append(p)
    if not hits:
        raise PermissionError(f"pid {t['sentinel']} not in /proc")
    return hits


def tcp():
    s = socket.create_connection(("127.0.0.1", t["tcp_port"]), timeout=2)
    s.sendall(b"pwned\n")
    s.close()
    return "connected"


def udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"pwned", ("127.0.0.1", t["udp_port"]))
    return "sent"


def unix_socket():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(t["unix_socket"])
    s.sendall(b"pwned\n")
    return "connected"


def vsock():
    s = socket.socket(40, socket.SOCK_STREAM)  # AF_VSOCK: a VM's host
    s.close()
    return "made"


def netlink():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    s.close()
    return "made"


def shm_attach():
    return call(libc.shmget(t["shm_key"], 0, 0))


def shm_make():
    shm = call(libc.shmget(0, 1 << 20, 0o1000 | 0o600))  # IPC_PRIVATE, IPC_CREAT
    libc.shmctl(shm, 0, None)  # IPC_RMID
    if t.get("shm_own"):
        raise PermissionError("made in its own IPC namespace")
    return shm


def unshare_user():
    return call(libc.unshare(0x10000000))  # CLONE_NEWUSER


def umount_proc():
    return call(libc.umount2(b"/proc", 2))  # MNT_DETACH


def mount_tmpfs():
    return call(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None))


def ptrace_sentinel():
    return call(libc.ptrace(16, t["sentinel"], None, None))  # PTRACE_ATTACH


def capabilities():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("CapEff:") and int(line.split()[1], 16) != 0:
                return line.strip()
    raise PermissionError("no capability")


def become_root():
    os.setuid(0)
    if os.geteuid() == 0 and os.getuid() == 0 and capabilities():
        return "root with capabilities"
    raise PermissionError("uid 0 without capabilities")


v = t["victim"]  # a file outside the box that anyone may write
report("read the operator's secret file", lambda: read(t["secret"]))
report("read the tournament's journal", lambda: read(t["journal"]))
report("read another entrant's file", lambda: read(t["rival_file"]))
report("list the machine's /tmp", lambda: [n for n in os.listdir(t["host_tmp"]) if n.startswith("arena-box-")] or (_ for _ in ()).throw(PermissionError("no box seen")))
report("write into another entrant's box", lambda: write(t["rival_box"] + "/pwned.txt"))
report("write a file outside", lambda: write(v))
report("create a file outside", lambda: write(t["victim_dir"] + "/created.txt"))
report("chmod a file outside", lambda: os.chmod(v, 0o4777))
report("chown a file outside", lambda: os.chown(v, os.getuid(), os.getgid()))
report("utimes a file outside", lambda: os.utime(v, (0, 0)))
report("truncate a file outside", lambda: os.truncate(v, 0))
report("rename a file outside", lambda: os.rename(v, v + ".moved"))
report("link a file outside", lambda: os.link(v, t["victim_dir"] + "/hardlink"))
report("symlink outside", lambda: os.symlink("/etc/passwd", t["victim_dir"] + "/symlink"))
report("mkdir outside", lambda: os.mkdir(t["victim_dir"] + "/dir"))
report("unlink a file outside", lambda: os.unlink(v))
report("chmod its own program", lambda: os.chmod(t["own_file"], 0o777))
report("write its own program", lambda: write(t["own_file"]))
report("write the system", lambda: write("/usr/arena-pwned"))
report("find the operator's secret in its environment", environ_secret)
report("see a process outside its box", seen_in_proc)
report("signal a process outside its box", lambda: os.kill(t["sentinel"], 0))
report("ptrace a process outside its box", ptrace_sentinel)
report("connect to the machine's loopback", tcp)
report("send UDP to the machine's loopback", udp)
report("connect to a Unix socket outside", unix_socket)
report("make an AF_VSOCK socket", vsock)
report("make a netlink socket", netlink)
report("attach the machine's SysV segment", shm_attach)
report("make a SysV segment", shm_make)
report("make a user namespace", unshare_user)
report("unmount its /proc", umount_proc)
report("mount a file system", mount_tmpfs)
report("hold a capability", capabilities)
report("become root", become_root)
# What it may do: its own directory and /tmp.
report("own: write its working directory", lambda: write("own.txt"))
report("own: write its /tmp", lambda: write(os.environ.get("TMPDIR", "/tmp") + "/own.txt"))
report("own: read its program", lambda: read(t["own_file"]))
print("done", flush=True)
