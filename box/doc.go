// Package box keeps each program arena starts (an entrant) in a box that
// the operating system enforces, on the assumption that the code inside
// is hostile native code: a student's program, or arena's own binary
// interpreting a go: bot, which a data race can turn against its
// interpreter. The bot API's reviewed tables keep honest bots on their
// game; they are not the wall. The box is.
//
// What a box is follows the sandboxes trusted with strangers' code:
// isolate (CMS and the IOI), nsjail, and bubblewrap (Flatpak's). Each
// gives a program a uid of its own and an empty directory, drops every
// capability and filters system calls. On Linux, with namespaces:
//
//   - a user namespace that maps the program's uid 0 to a uid of its own
//     (arena's user when arena is not root), every capability dropped
//     (bounding and ambient sets emptied, securebits locked so that uid 0
//     regains none on exec) and no_new_privs;
//   - PID, mount, network, IPC and UTS namespaces: a root of its own
//     (pivot_root) holding the system's directories read-only, its
//     program's files read-only, its own working directory /box and its
//     own /tmp, a /proc of its own PID namespace, and a /dev of five
//     devices; no network but its seat, a TCP port on the loopback of its
//     own network namespace;
//   - Landlock (writes beneath /box and /tmp only; TCP to its seat only;
//     no signal or abstract socket outside its domain) and a seccomp
//     filter (no mount, namespace, ptrace, keyring, BPF or module calls;
//     clone3 answered ENOSYS so that the C library falls back to clone,
//     whose namespace flags are refused);
//   - a clean environment: PATH, HOME (its box), TMPDIR, LANG and what its
//     kind needs, nothing of the operator's;
//   - the caps (rlimits of memory, processes and CPU time).
//
// Where the kernel gives no user namespace (some containers), and on the
// portable path (PortableEnv), a program runs in a process group led by a
// launcher that ends it with arena, in a directory of its own, under
// Landlock and seccomp where the kernel has them, as a uid of its own
// when arena is root; Containment says what is weaker. On macOS a
// Seatbelt profile takes Landlock's place (seatbelt.go); on Windows a Job
// Object holds the tree and its caps (job_windows.go).
//
// The launcher is arena's own binary: a box is started by starting arena
// again with a plan in its environment (launcher.go's init runs it before
// main), which sets the box up from inside and then executes the program.
package box
