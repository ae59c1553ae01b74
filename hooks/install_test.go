package hooks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func actions(rs []Result) map[string]string {
	m := map[string]string{}
	for _, r := range rs {
		m[r.Name] = r.Action
	}
	return m
}

func TestInstallKeepsForeignHooks(t *testing.T) {
	dir := t.TempDir()
	foreign := "#!/bin/bash\nset -e\necho foreign >> log\nexit 0\n"
	write(t, filepath.Join(dir, "post-commit"), foreign, 0o750)
	noShebang := "echo plain\n"
	write(t, filepath.Join(dir, "post-merge"), noShebang, 0o755)

	rs, err := Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := actions(rs)
	want := map[string]string{"post-commit": ActionAdded, "post-merge": ActionAdded, "post-checkout": ActionCreated, "post-rewrite": ActionCreated}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	pc := read(t, filepath.Join(dir, "post-commit"))
	if !strings.HasPrefix(pc, "#!/bin/bash\n"+beginMarker) || !strings.HasSuffix(pc, endMarker+"\nset -e\necho foreign >> log\nexit 0\n") {
		t.Errorf("block not placed after the shebang:\n%s", pc)
	}
	if !strings.Contains(pc, "git-bcindex hook run post-commit \"$@\"") || strings.Contains(pc, createdMark) {
		t.Errorf("wrong block:\n%s", pc)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "post-commit")); fi.Mode().Perm() != 0o750 {
		t.Errorf("mode changed to %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Join(dir, "post-checkout")); fi.Mode().Perm() != 0o755 {
		t.Errorf("created hook mode %v", fi.Mode().Perm())
	}

	// Reinstalling changes nothing; an old block is upgraded in place.
	rs, err = Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Action != ActionUpToDate {
			t.Errorf("reinstall %s: %s", r.Name, r.Action)
		}
	}
	old := strings.Replace(pc, "hook version 1", "hook version 0", 1)
	write(t, filepath.Join(dir, "post-commit"), old, 0o750)
	if sts, _ := Status(dir); sts[0].Current || !sts[0].Installed || !sts[0].Foreign {
		t.Errorf("status of old block: %+v", sts[0])
	}
	rs, _ = Install(dir)
	if a := actions(rs)["post-commit"]; a != ActionUpgraded || read(t, filepath.Join(dir, "post-commit")) != pc {
		t.Errorf("upgrade: %s\n%s", a, read(t, filepath.Join(dir, "post-commit")))
	}
	if !Installed(dir) {
		t.Error("Installed = false after install")
	}

	rs, err = Uninstall(dir)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]string{"post-commit": ActionStripped, "post-merge": ActionStripped, "post-checkout": ActionRemoved, "post-rewrite": ActionRemoved}
	got = actions(rs)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("uninstall %s: %q, want %q", k, got[k], v)
		}
	}
	if s := read(t, filepath.Join(dir, "post-commit")); s != foreign {
		t.Errorf("foreign hook changed:\n%q\nwant\n%q", s, foreign)
	}
	if s := read(t, filepath.Join(dir, "post-merge")); s != noShebang {
		t.Errorf("hook without shebang changed: %q", s)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "post-commit")); fi.Mode().Perm() != 0o750 {
		t.Errorf("mode changed to %v", fi.Mode().Perm())
	}
	for _, n := range []string{"post-checkout", "post-rewrite"} {
		if _, err := os.Stat(filepath.Join(dir, n)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", n, err)
		}
	}
	if rs, _ := Uninstall(dir); actions(rs)["post-commit"] != ActionNotThere {
		t.Errorf("second uninstall: %v", rs)
	}
}

func TestInstallRefusesNonShellHook(t *testing.T) {
	dir := t.TempDir()
	py := "#!/usr/bin/env python3\nprint('hi')\n"
	write(t, filepath.Join(dir, "post-commit"), py, 0o755)
	if err := os.Symlink("/bin/true", filepath.Join(dir, "post-merge")); err != nil {
		t.Fatal(err)
	}
	rs, err := Install(dir)
	var fe *ForeignHookError
	if !errors.As(err, &fe) || !errors.Is(err, ErrForeignHook) {
		t.Fatalf("err = %v, want ForeignHookError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, `add these Python lines to `+filepath.Join(dir, "post-commit")) ||
		!strings.Contains(msg, `"git-bcindex", "hook", "run", "post-commit"`) || strings.Contains(msg, "if [") {
		t.Errorf("error lacks the manual step in Python: %v", err)
	}
	// A symlink to a binary gets the command to call, not shell lines.
	if msg := err.Error(); !strings.Contains(msg, "git-bcindex hook run post-merge ARGS") || strings.Contains(msg, "post-merge \"$@\"") {
		t.Errorf("error for a symlink to a binary: %v", err)
	}
	got := actions(rs)
	if got["post-commit"] != ActionForeign || got["post-merge"] != ActionForeign || got["post-checkout"] != ActionCreated {
		t.Errorf("actions %v", got)
	}
	if read(t, filepath.Join(dir, "post-commit")) != py {
		t.Error("python hook modified")
	}
}

func TestIsShellScript(t *testing.T) {
	for s, want := range map[string]bool{
		"#!/bin/sh\n": true, "#!/usr/bin/env bash\n": true, "#! /bin/zsh -e\n": true, "echo\n": true,
		"#!/usr/bin/env python3\n": false, "#!/usr/bin/perl\n": false, "#!/usr/bin/env node\n": false,
	} {
		if got := isShellScript([]byte(s)); got != want {
			t.Errorf("isShellScript(%q) = %v", s, got)
		}
	}
}

func TestBrokenBlockIsLeftAlone(t *testing.T) {
	dir := t.TempDir()
	broken := "#!/bin/sh\n" + beginMarker + "\necho half\n"
	write(t, filepath.Join(dir, "post-commit"), broken, 0o755)
	if _, err := Install(dir); err == nil || !strings.Contains(err.Error(), "no end marker") {
		t.Fatalf("install over a cut block: %v", err)
	}
	if _, err := Uninstall(dir); err == nil {
		t.Fatal("uninstall of a cut block succeeded")
	}
	if read(t, filepath.Join(dir, "post-commit")) != broken {
		t.Error("cut block modified")
	}
}
