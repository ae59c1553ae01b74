package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
)

func publishCommand() *cli.Command {
	return &cli.Command{
		Name:  "publish",
		Usage: "publish the index of refs (default: the current branch) to the Weaviate cluster in bcindex.remote.url",
		Description: "Sends only the chunk objects the cluster lacks and the files that changed since the ref's\n" +
			"last publication; readers see the old commit or the new one, never a mix. Killed, it resumes\n" +
			"when run again. The API key, if any, comes from $BCINDEX_REMOTE_API_KEY (or $WEAVIATE_API_KEY).\n" +
			"With bcindex.remote.grpc set to the cluster's gRPC address (HOST:50051), objects are written\n" +
			"over gRPC, which takes less CPU on both sides than the URL's REST API (http:// URLs only).\n" +
			"With bcindex.enhance.model set, the summaries that chat model wrote (git bcindex enhance) and\n" +
			"the cluster lacks follow, marked generated; search --remote shows them on the hits.",
		Flags: flags(refFlags(), []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "repository `NAME` in the cluster (default: bcindex.remote.name, else origin's host/path; a clone of a local checkout: its own path)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per ref, then one for the summaries, if any"},
		}),
		Action: runPublish,
	}
}

func short(sha string) string { return sha[:min(12, len(sha))] }

// remoteSettings are the bcindex.remote.* keys.
type remoteSettings struct {
	url, name string
	grpc      string // host:port of the cluster's gRPC API, for publish's writes
}

// openWithRemote is openWithSettings plus the bcindex.remote.* keys.
func openWithRemote(c *cli.Context) (*gitindex.Repo, settings, remoteSettings, error) {
	repo, s, err := openWithSettings(c)
	if err != nil {
		return nil, s, remoteSettings{}, err
	}
	rs, err := readRemoteSettings(repo)
	return repo, s, rs, err
}

func readRemoteSettings(repo *gitindex.Repo) (remoteSettings, error) {
	cfg, err := repo.Config()
	if err != nil {
		return remoteSettings{}, err
	}
	sub := cfg.Raw.Section("bcindex").Subsection("remote")
	rs := remoteSettings{url: sub.Option("url"), name: sub.Option("name"), grpc: sub.Option("grpc")}
	dir := repo.WorkTree
	if dir == "" {
		dir = strings.TrimSuffix(repo.CommonDir, "/.git")
	}
	if rs.name == "" {
		if o, ok := cfg.Remotes["origin"]; ok && len(o.URLs) > 0 {
			rs.name = repoName(o.URLs[0])
			if checkoutRemote(o.URLs[0], dir) {
				// A clone of someone's checkout is a fork of it, which
				// publishes under its own name: its path on this machine.
				if abs, err := filepath.Abs(dir); err == nil {
					rs.name = strings.TrimPrefix(filepath.ToSlash(abs), "/")
				}
			}
		}
	}
	if rs.name == "" {
		rs.name = strings.TrimSuffix(filepath.Base(dir), ".git")
	}
	return rs, nil
}

// checkoutRemote reports whether the remote URL u (of the repository in
// dir) is a local path, or file:// URL, of a repository with a work tree:
// a checkout that publishes under its own directory's name, not a bare
// repository its clones share.
func checkoutRemote(u, dir string) bool {
	p, ok := strings.CutPrefix(u, "file://")
	if !ok && (strings.Contains(u, "://") || strings.Contains(u, ":") && !filepath.IsAbs(u) && !strings.HasPrefix(u, ".")) {
		return false // a URL or host:path
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = strings.TrimSuffix(filepath.Clean(p), string(filepath.Separator)+".git")
	fi, err := os.Stat(filepath.Join(p, ".git"))
	return err == nil && (fi.IsDir() || fi.Mode().IsRegular())
}

// repoName turns a remote URL into host/path: https://github.com/a/b.git
// and git@github.com:a/b.git are both github.com/a/b.
func repoName(u string) string {
	u = strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.Index(u, "@"); j >= 0 && j < strings.Index(u+"/", "/") {
			u = u[j+1:]
		}
	} else if i := strings.Index(u, ":"); i >= 0 && !strings.HasPrefix(u, "/") {
		host := u[:i]
		if j := strings.Index(host, "@"); j >= 0 {
			host = host[j+1:]
		}
		u = host + "/" + u[i+1:]
	} else {
		return strings.TrimSuffix(filepath.Base(u), ".git")
	}
	return u
}

// currentBranch names the branch HEAD is on, or "HEAD" when detached.
func currentBranch(repo *gitindex.Repo) string {
	if h, err := repo.Git.Reference("HEAD", false); err == nil && h.Target().IsBranch() {
		return h.Target().Short()
	}
	return "HEAD"
}
