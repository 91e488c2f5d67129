package ladder

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The bounds of a submission.
const (
	MaxUpload   = 16 << 20 // the file sent: a go: file or an archive
	MaxUnpacked = 64 << 20 // its files, unpacked
	MaxFiles    = 2000
	MaxGoFile   = 1 << 20
	maxName     = 200 // a file's path in the archive
	maxCommand  = 400
)

// Upload is a submission as received: a go: file's source, or a
// program's files and the command that runs it in its folder.
type Upload struct {
	// Name is the file's name as the student gave it (bot.go,
	// agent.zip), for their page: never a path.
	Name    string
	Kind    string // "go" or "program"
	Command string // for a program: "python3 agent.py", or "py:agent.py" for a Colosseum agent
	Files   []byte // a tar archive of checked names, sorted, with no times: the same files give the same bytes
	Size    int64  // the files' bytes, unpacked
	Count   int
	names   []string // the files' names, for checking its command
}

// shownName is a file's name as a page may show it: valid UTF-8, at
// most 100 bytes.
func shownName(n string) string {
	n = strings.ToValidUTF8(n, "?")
	if len(n) > 100 {
		n = strings.ToValidUTF8(n[:100], "")
	}
	return n
}

// Digest is a short fingerprint of the upload's files and command.
func (u *Upload) Digest() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", u.Kind, u.Command)
	h.Write(u.Files)
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// ReadUpload reads what a student sent under the name they gave it: a
// .go file is a go: bot; a .tar, .tar.gz, .tgz or .zip is a program's
// folder, run by command. Every bound is checked as it is read, and
// every name in an archive: a relative path of letters, digits and
// ._-+ (no .., no absolute path, no link), or the upload is refused
// saying which entry and why.
func ReadUpload(name string, data []byte, command string) (*Upload, error) {
	if len(data) > MaxUpload {
		return nil, fmt.Errorf("%s: %d bytes: a submission is at most %s", name, len(data), sizeText(MaxUpload))
	}
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".go") {
		if command != "" {
			return nil, fmt.Errorf("%s: a go: bot has no command", name)
		}
		if len(data) > MaxGoFile {
			return nil, fmt.Errorf("%s: %d bytes: a go: file is at most %s", name, len(data), sizeText(MaxGoFile))
		}
		files, err := packFiles([]packed{{name: "bot.go", data: data, mode: 0o644}})
		if err != nil {
			return nil, err
		}
		return &Upload{Name: shownName(name), Kind: "go", Files: files, Size: int64(len(data)), Count: 1}, nil
	}
	var entries []packed
	var err error
	switch {
	case strings.HasSuffix(lower, ".zip"):
		entries, err = readZip(data)
	case strings.HasSuffix(lower, ".tar.gz") || strings.HasSuffix(lower, ".tgz"):
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(data)); err == nil {
			entries, err = readTar(zr)
		}
	case strings.HasSuffix(lower, ".tar"):
		entries, err = readTar(bytes.NewReader(data))
	default:
		return nil, fmt.Errorf("%s: want a .go file, or a program's folder as .zip, .tar, .tar.gz or .tgz", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s: no files", name)
	}
	entries = stripCommonFolder(entries)
	if err := checkCommand(command, entries); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	files, err := packFiles(entries)
	if err != nil {
		return nil, err
	}
	u := &Upload{Kind: "program", Command: command, Files: files, Count: len(entries)}
	for _, e := range entries {
		u.Size += int64(len(e.data))
		u.names = append(u.names, e.name)
	}
	u.Name = shownName(name)
	return u, nil
}

// packed is a file of an upload.
type packed struct {
	name string
	data []byte
	mode int64
}

// budget counts what an archive unpacks to, refusing past the bounds.
type budget struct {
	files int
	bytes int64
}

func (b *budget) take(name string, size int64) error {
	b.files++
	b.bytes += size
	switch {
	case b.files > MaxFiles:
		return fmt.Errorf("more than %d files", MaxFiles)
	case size < 0 || b.bytes > MaxUnpacked:
		return fmt.Errorf("%s: the files unpack to more than %s", name, sizeText(MaxUnpacked))
	}
	return nil
}

func readTar(r io.Reader) ([]packed, error) {
	tr := tar.NewReader(r)
	var out []packed
	var b budget
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("not a tar archive that can be read: %v", err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if _, err := cleanName(h.Name); err != nil {
				return nil, err
			}
			if err := b.take(h.Name, 0); err != nil { // a folder counts as a file: a bomb of folders is bounded too
				return nil, err
			}
			continue
		case tar.TypeReg:
		case tar.TypeXGlobalHeader:
			continue
		default:
			return nil, fmt.Errorf("%q: only files and folders are taken (not links or devices)", h.Name)
		}
		name, err := cleanName(h.Name)
		if err != nil {
			return nil, err
		}
		if err := b.take(name, h.Size); err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		out = append(out, packed{name: name, data: data, mode: h.Mode})
	}
}

func readZip(data []byte) ([]packed, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("not a zip archive that can be read: %v", err)
	}
	var out []packed
	var b budget
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			if _, err := cleanName(f.Name); err != nil {
				return nil, err
			}
			if err := b.take(f.Name, 0); err != nil {
				return nil, err
			}
			continue
		}
		if !f.Mode().IsRegular() {
			return nil, fmt.Errorf("%q: only files and folders are taken (not links or devices)", f.Name)
		}
		name, err := cleanName(f.Name)
		if err != nil {
			return nil, err
		}
		if err := b.take(name, int64(f.UncompressedSize64)); err != nil {
			return nil, err
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		// The size the entry claims is not trusted: the read stops past it.
		data, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
		rc.Close()
		if err == nil && uint64(len(data)) != f.UncompressedSize64 {
			err = errors.New("its size is not the one the archive gives")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		out = append(out, packed{name: name, data: data, mode: int64(f.Mode().Perm())})
	}
	return out, nil
}

// cleanName checks a name an archive gives a file: a relative path of
// plain elements. The name is the student's, so nothing is made of it
// but a file under a folder arena names.
func cleanName(name string) (string, error) {
	n := strings.TrimSuffix(strings.TrimPrefix(name, "./"), "/")
	if n == "" || len(n) > maxName {
		return "", fmt.Errorf("%.200q: a file's path is 1 to %d characters", name, maxName)
	}
	for _, el := range strings.Split(n, "/") {
		if el == "" || el == "." || el == ".." {
			return "", fmt.Errorf("%q: a path of plain names is taken (no .., no absolute path)", name)
		}
		for _, r := range el {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+", r)) {
				return "", fmt.Errorf("%q: a name is letters, digits and ._-+ (not %q)", name, r)
			}
		}
	}
	return n, nil
}

// stripCommonFolder drops a folder every file is in (an archive of
// "agent/", as zip makes of a folder), so that the command names the
// files as they are in the folder the student ran it in.
func stripCommonFolder(es []packed) []packed {
	first, _, ok := strings.Cut(es[0].name, "/")
	if !ok {
		return es
	}
	for _, e := range es {
		if !strings.HasPrefix(e.name, first+"/") {
			return es
		}
	}
	for i := range es {
		es[i].name = strings.TrimPrefix(es[i].name, first+"/")
	}
	return es
}

// checkCommand checks a program's command against its files: it is
// given, bounded, plain words (no quotes), and names its files alone. Its
// first word is a file of the folder or a runtime's name (the ladder
// checks which runtimes it allows: Upload.CheckRuntime); a word with a
// path in it must be one of the folder's files, so that no word names
// the ladder's files, another student's or the machine's; and one word
// names a file of the folder (py:FILE's, for a Colosseum agent).
func checkCommand(command string, es []packed) error {
	command = strings.TrimSpace(command)
	if command == "" {
		return errors.New(`a program needs its command, as run in its folder ("python3 agent.py", or "py:student_agent.py" for a Colosseum agent)`)
	}
	if len(command) > maxCommand || strings.ContainsAny(command, "\n\r\x00") {
		return fmt.Errorf("the command is one line of at most %d characters", maxCommand)
	}
	has := func(n string) bool {
		return slices.ContainsFunc(es, func(e packed) bool { return e.name == path.Clean(n) })
	}
	if f, ok := strings.CutPrefix(command, "py:"); ok {
		if !has(f) {
			return fmt.Errorf("py:%s: no such file in the folder", f)
		}
		return nil
	}
	if strings.ContainsAny(command, "'\"\\`$") {
		return fmt.Errorf("%q: a command is plain words, as typed without a shell (no quotes, \\, ` or $)", command)
	}
	words := strings.Fields(command)
	if !has(words[0]) && !plainWord(words[0]) {
		return fmt.Errorf("%q is neither a file of your folder nor a runtime's name (python3, java): a program reads its own files alone", words[0])
	}
	named := false
	for _, w := range words {
		switch {
		case has(w):
			named = true
		case strings.ContainsAny(w, "/~") || strings.Contains(w, ".."):
			return fmt.Errorf("%q names a path that is not a file of your folder: a program reads its own files alone", w)
		}
	}
	if !named {
		return fmt.Errorf("%q names none of the folder's files", command)
	}
	return nil
}

// packFiles makes the archive kept: the files sorted by name, each
// 0644 or 0755, with no owner and no time.
func packFiles(es []packed) ([]byte, error) {
	slices.SortFunc(es, func(a, b packed) int { return strings.Compare(a.name, b.name) })
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for i, e := range es {
		if i > 0 && es[i-1].name == e.name {
			return nil, fmt.Errorf("%s: twice in the archive", e.name)
		}
		mode := int64(0o644)
		if e.mode&0o111 != 0 {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: mode, Size: int64(len(e.data)), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unpack writes a kept archive's files under dir, which arena made: its
// names were checked when it was read, and are checked again here.
func Unpack(files []byte, dir string) error {
	tr := tar.NewReader(bytes.NewReader(files))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name, err := cleanName(h.Name)
		if err != nil || h.Typeflag != tar.TypeReg {
			return fmt.Errorf("a kept archive holds %q", h.Name)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fs.FileMode(h.Mode&0o755))
		if err != nil {
			return err
		}
		_, err = io.Copy(f, tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}

// PackDir packs a folder as a .tar.gz to submit (arena ladder submit
// DIR): its regular files, hidden ones (.git, .venv) and __pycache__
// left out, each name checked as the server checks it.
func PackDir(dir string) ([]byte, error) {
	var es []packed
	var b budget
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "__pycache__" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: only files and folders are sent (not links)", p)
		}
		name, err := cleanName(filepath.ToSlash(rel))
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := b.take(name, info.Size()); err != nil {
			return fmt.Errorf("%s: %v", dir, err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		es = append(es, packed{name: name, data: data, mode: int64(info.Mode().Perm())})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(es) == 0 {
		return nil, fmt.Errorf("%s: no files to send", dir)
	}
	files, err := packFiles(es)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(files)
	zw.Close()
	return buf.Bytes(), nil
}

// sizeText says a size in bytes as people read it.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readBounded reads r, refusing past limit bytes.
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("more than %s", sizeText(limit))
	}
	return data, err
}
