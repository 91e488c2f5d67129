package main

import (
	"os"
	"path"
	"strings"
	"testing"
)

// The download's README is docs/download.md under a header with its
// system's commands, its links made from the archive's top folder.
func TestDownloadReadme(t *testing.T) {
	body := []byte("# arena, downloaded\n\nSee [the rules](rules/) and [limits](limits.md#on-each-system), ![a picture](x.png), [the site](https://example.org/a) and [above](#top).\n")
	got := string(downloadReadme(body, "v1.2.3", "windows", "amd64", true))
	for _, want := range []string{
		"# arena, downloaded\n\n**arena v1.2.3 for Windows (amd64).**",
		`    .\arena.exe serve `, `    .\arena.exe desktop `,
		"[the rules](docs/rules/)", "[limits](docs/limits.md#on-each-system)", "![a picture](docs/x.png)",
		"[the site](https://example.org/a)", "[above](#top)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	mac := string(downloadReadme(body, "v1", "darwin", "arm64", false))
	if !strings.Contains(mac, "    ./arena serve") || strings.Contains(mac, "desktop      the playground") || !strings.Contains(mac, "com.apple.quarantine") {
		t.Errorf("the macOS README without its window:\n%s", mac)
	}
}

// Every link of the download's README and of the docs it carries
// resolves to a file of the archive (or a folder of them), or leaves it
// for the web: a course reading the download offline follows each.
func TestDownloadLinksResolve(t *testing.T) {
	files, err := carriedFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile("../../docs/download.md")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		for p := f.name; p != "." && p != "/"; p = path.Dir(p) {
			have[p] = true
		}
	}
	pages := map[string][]byte{"README.md": downloadReadme(body, "v1", "linux", "amd64", true)}
	for _, f := range files {
		if strings.HasSuffix(f.name, ".md") {
			pages[f.name] = f.data
		}
	}
	checked := 0
	for page, text := range pages {
		for _, m := range mdLink.FindAllSubmatch(text, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			p := path.Clean(path.Join(path.Dir(page), target))
			if !have[p] {
				t.Errorf("%s links to %s: not in the archive", page, m[1])
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("%d links checked: the docs were not read", checked)
	}
	if !strings.Contains(string(pages["README.md"]), "docs/ladder.md") {
		t.Error("the download's README does not point a course to the ladder")
	}
}
