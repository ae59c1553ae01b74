package gitindex

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// WorkFile is a file git grep reads from the working tree or the index.
type WorkFile struct {
	Path string        // from the top of the working tree
	Blob plumbing.Hash // the blob the file holds, when known; zero: read the file
}

// GrepWorktree lists the files git grep reads without a revision: the
// index's files (not symlinks or submodules), in its order. With cached,
// each is its staged blob. Otherwise a file whose status says it still
// holds its staged blob (git's own test, racy entries excepted) is that
// blob, so the index of blobs covers it, and any other file is to be read
// from the working tree, as are all of them when a checkout filter or
// line-ending conversion may make the working tree's bytes differ from
// the blobs'. Sparse entries are left out, unmerged ones are read once
// from the working tree (never with cached), and assume-unchanged ones
// are their staged blob.
func (r *Repo) GrepWorktree(cached bool) ([]WorkFile, error) {
	return r.grepWorktree(cached, false)
}

// grepWorktree is GrepWorktree; with disk, as git grep --untracked reads
// the files (from the working tree, whatever the index says of them),
// sparse and assume-unchanged entries are files to read too.
func (r *Repo) grepWorktree(cached, disk bool) ([]WorkFile, error) {
	idx, err := r.ReadGitIndex()
	if err != nil {
		return nil, err
	}
	trust := !cached && !r.checkoutConverts(idx)
	var out []WorkFile
	var check [][2]int // files whose status is compared with the index's: (out, entry)
	for i := 0; i < len(idx.Entries); i++ {
		e := &idx.Entries[i]
		if !disk && !cached && e.SkipWorktree || !e.Regular() {
			continue
		}
		if disk && (e.SkipWorktree || e.AssumeValid) {
			if e.Stage == 0 {
				out = append(out, WorkFile{Path: e.Path})
			}
			continue
		}
		if cached || e.AssumeValid {
			if e.Stage == 0 && !e.IntentToAdd {
				out = append(out, WorkFile{Path: e.Path, Blob: e.Blob})
			}
			continue
		}
		if trust && e.Stage == 0 && !e.IntentToAdd {
			check = append(check, [2]int{len(out), i})
			out = append(out, WorkFile{Path: e.Path, Blob: e.Blob})
		} else {
			out = append(out, WorkFile{Path: e.Path})
		}
		for e.Stage != 0 && i+1 < len(idx.Entries) && idx.Entries[i+1].Path == e.Path {
			i++
		}
	}
	paths := make([]string, len(check))
	for k, c := range check {
		paths[k] = out[c[0]].Path
	}
	statFiles(r.WorkTree, paths, func(k int, st fileStat, ok bool) {
		f, e := &out[check[k][0]], &idx.Entries[check[k][1]]
		if !ok || !idx.unchanged(e, st) {
			f.Blob = plumbing.ZeroHash
		}
	})
	return out, nil
}

func (r *Repo) worktreePath(p string) string {
	return filepath.Join(r.WorkTree, filepath.FromSlash(p))
}

// GrepUntracked lists what git grep --untracked reads, all from the
// working tree: the tracked files present there (sparse and
// assume-unchanged ones included; a file that still holds its staged
// blob is that blob) and the untracked ones (not ignored, with
// excludeStandard), in path order.
func (r *Repo) GrepUntracked(ctx context.Context, excludeStandard bool) ([]WorkFile, error) {
	tracked, err := r.grepWorktree(false, true)
	if err != nil {
		return nil, err
	}
	args := []string{"ls-files", "-z", "--others"}
	if excludeStandard {
		args = append(args, "--exclude-standard")
	}
	out, msg, err := r.git(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("git ls-files --others: %v: %s", err, strings.TrimSpace(msg))
	}
	var files []WorkFile
	for _, f := range tracked {
		if f.Blob.IsZero() {
			if fi, err := os.Lstat(r.worktreePath(f.Path)); err != nil || !fi.Mode().IsRegular() {
				continue
			}
		}
		files = append(files, f)
	}
	for _, p := range bytes.Split([]byte(out), []byte{0}) {
		if len(p) > 0 {
			files = append(files, WorkFile{Path: string(p)})
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// GrepDirectory lists what git grep --no-index reads: every file below
// dir, in path order relative to dir, passing over .git directories.
func GrepDirectory(dir string) ([]WorkFile, error) {
	var files []WorkFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != dir {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, WorkFile{Path: filepath.ToSlash(rel)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// checkoutConverts reports whether a checkout may write bytes other than
// the blob's (line endings, filters, ident, an encoding), so that the
// working tree's files must be read to know what they hold.
func (r *Repo) checkoutConverts(idx *GitIndex) bool {
	if cfg, err := r.Config(); err == nil {
		core := cfg.Raw.Section("core")
		if v := strings.ToLower(core.Option("autocrlf")); v == "true" || v == "1" || v == "yes" || v == "on" {
			return true
		}
		if strings.EqualFold(core.Option("eol"), "crlf") {
			return true
		}
		if f := core.Option("attributesFile"); f != "" && attributesConvert(expandHome(f)) {
			return true
		}
	}
	if attributesConvert(filepath.Join(r.CommonDir, "info", "attributes")) {
		return true
	}
	for _, e := range idx.Entries {
		if e.Path == ".gitattributes" || strings.HasSuffix(e.Path, "/.gitattributes") {
			if attributesConvert(r.worktreePath(e.Path)) {
				return true
			}
		}
	}
	return false
}

// attributesConvert reports whether an attributes file sets anything that
// changes bytes at checkout: eol=crlf, a filter, ident or an encoding.
func attributesConvert(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		for _, a := range f[1:] {
			name, value, _ := strings.Cut(a, "=")
			switch {
			case name == "eol" && value == "crlf", name == "ident",
				name == "filter" && value != "", name == "working-tree-encoding" && value != "":
				return true
			}
		}
	}
	return false
}

func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, rest)
		}
	}
	return p
}

// GrepWorktreeSubmodules is GrepWorktree (not cached) with the files of
// each checked-out submodule, recursively, where git grep
// --recurse-submodules reads them: at the submodule's place in the
// index's order, from the working tree, their paths from the top of this
// working tree.
func (r *Repo) GrepWorktreeSubmodules() ([]WorkFile, error) {
	files, err := r.GrepWorktree(false)
	if err != nil {
		return nil, err
	}
	idx, err := r.ReadGitIndex()
	if err != nil {
		return nil, err
	}
	var out []WorkFile
	i := 0
	for _, e := range idx.Entries {
		if e.Mode&0o170000 != 0o160000 || e.Stage != 0 {
			continue
		}
		dir := r.worktreePath(e.Path)
		if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
			continue // not checked out
		}
		sub, err := OpenRepo(dir)
		if err != nil {
			return nil, fmt.Errorf("open submodule %s: %w", e.Path, err)
		}
		inner, err := sub.GrepWorktreeSubmodules()
		if err != nil {
			return nil, err
		}
		for i < len(files) && files[i].Path < e.Path {
			out = append(out, files[i])
			i++
		}
		for _, f := range inner {
			out = append(out, WorkFile{Path: e.Path + "/" + f.Path})
		}
	}
	return append(out, files[i:]...), nil
}
