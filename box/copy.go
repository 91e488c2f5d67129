//go:build !js

package box

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A program whose uid is its own (arena run as root) reads what others
// may read. Its files are given as they are when they are readable by
// others; otherwise (a test's temporary folder, a home only its owner
// may enter) they are copied into the box, as isolate and CMS copy a
// submission into theirs, up to copyLimit.
const (
	copyLimit = 64 << 20
	copyFiles = 10000
)

// othersMay reports whether another user may read p (and enter it, for a
// folder), and, with path, every folder above it.
func othersMay(p string, path bool) bool {
	for {
		st, err := os.Stat(p)
		if err != nil {
			return false
		}
		need := fs.FileMode(0o004)
		if st.IsDir() {
			need = 0o005
		}
		if st.Mode().Perm()&need != need {
			return false
		}
		if !path || p == "/" {
			return true
		}
		p = filepath.Dir(p)
		path = true
		if st, err := os.Stat(p); err != nil || st.Mode().Perm()&0o001 == 0 {
			return false
		}
	}
}

// givenFiles are the binds of a program's files: each as it is where the
// program's uid may read it (through the bind alone when bound, else by
// its path too), else a copy in the box's directory, owned by uid; and
// each of found that its uid may read as it is.
func (b *Box) givenFiles(files, found []string, uid, gid int, bound bool) ([]bind, error) {
	var out []bind
	for _, f := range found {
		if uid == os.Getuid() || othersMay(f, !bound) {
			out = append(out, bind{From: f, To: f})
		}
	}
	for i, f := range files {
		if slices.ContainsFunc(out, func(bd bind) bool { return within(f, bd.To) }) {
			continue // given with a folder found
		}
		if uid == os.Getuid() || othersMay(f, !bound) {
			out = append(out, bind{From: f, To: f})
			continue
		}
		dst := filepath.Join(b.root, "files", strconv.Itoa(i), filepath.Base(f))
		if err := copyTree(f, dst, uid, gid); err != nil {
			return nil, fmt.Errorf("%s cannot be read by the program's own uid and cannot be copied into its box: %v (make it readable by others: chmod -R o+rX)", f, err)
		}
		out = append(out, bind{From: dst, To: f})
	}
	// A folder is bound before what is bound inside it.
	slices.SortFunc(out, func(a, b bind) int { return strings.Compare(a.To, b.To) })
	return out, nil
}

// copyTree copies the regular files and folders beneath src to dst,
// arena's and readable by others (the program's uid reads them, and may
// not change them), within copyLimit bytes and copyFiles entries; links
// are made again as links.
func copyTree(src, dst string, uid, gid int) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	var bytes int64
	var n int
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > copyFiles {
			return fmt.Errorf("over %d files", copyFiles)
		}
		to := filepath.Join(dst, strings.TrimPrefix(p, src))
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.Mkdir(to, 0o755); err != nil {
				return err
			}
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		case d.Type().IsRegular():
			if bytes += info.Size(); bytes > copyLimit {
				return fmt.Errorf("over %s", SizeText(copyLimit))
			}
			if err := copyFile(p, to, info.Mode().Perm()|0o444); err != nil {
				return err
			}
		default:
			return nil // a device, a pipe, a socket: not a program's file
		}
		return nil // arena's, readable by the program's uid, not its to change
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.LimitReader(in, copyLimit+1)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// rewrite replaces, in the words, each bind's path by its copy's, for a
// program that reads its files by their paths (no bind).
func rewrite(args []string, binds []bind) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		for _, bd := range binds {
			if bd.From != bd.To && within(a, bd.To) {
				out[i] = bd.From + strings.TrimPrefix(a, bd.To)
				break
			}
		}
	}
	return out
}
