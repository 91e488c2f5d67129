package main

import (
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
