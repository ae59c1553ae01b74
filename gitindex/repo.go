package gitindex

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// ErrNotRepository is returned when no git repository encloses a directory.
var ErrNotRepository = errors.New("not a git repository")

// ErrUnknownRevision is returned when a revision does not resolve to a commit.
var ErrUnknownRevision = errors.New("unknown revision")

// ErrNoCommits is returned, with ErrUnknownRevision, for a revision of a
// repository that has no commits yet.
var ErrNoCommits = errors.New("the repository has no commits yet")

// Repo is an opened repository and the location of its index.
type Repo struct {
	Git       *git.Repository
	GitDir    string // the worktree's own git dir (differs from CommonDir in linked worktrees)
	CommonDir string // the shared git dir holding objects and refs
	WorkTree  string // top of the working tree; "" for a bare repository
	IndexDir  string // CommonDir/bcindex
	// Damaged, when set, is told in one line of each cached file (a tree
	// listing) that failed its checks and was made again from git.
	Damaged func(line string)
	workDir string // where it was opened from, to open it again
	loose   *looseObjects
	packs   *packSet
	// idx is git's index as last read (ReadGitIndex), idxKey the file's
	// name, size and time then.
	idxMu  sync.Mutex
	idx    *GitIndex
	idxKey string
	// gitMu serialises what falls back to go-git in ReadBlobUpTo, whose
	// object access is not safe for concurrent use; the direct loose and
	// pack readers are.
	gitMu sync.Mutex
}

// Commit is a resolved revision.
type Commit struct {
	Rev  string        // what the user asked for
	Hash plumbing.Hash // the commit
	Tree plumbing.Hash // its root tree
	When time.Time     // its committer date
}

// OpenRepo finds the repository enclosing dir (any subdirectory or linked
// worktree) and opens it with go-git.
func OpenRepo(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	gitDir, workTree, err := findGitDir(abs)
	if err != nil {
		return nil, err
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = filepath.Clean(c)
	}
	r := &Repo{GitDir: gitDir, CommonDir: common, WorkTree: workTree, IndexDir: filepath.Join(common, "bcindex"), workDir: abs,
		loose: newLooseObjects(filepath.Join(common, "objects")), packs: newPackSet(filepath.Join(common, "objects"))}
	if r.Git, err = r.open(); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", abs, err)
	}
	return r, nil
}

// open opens the object database with go-git, keeping pack files open
// between lookups: by default go-git reopens the pack file for every
// object, which dominates reading trees and small blobs.
// objectCache bounds go-git's cache of decoded objects (96 MiB by
// default). Indexing reads each blob once, so what the cache is for is the
// delta bases of nearby objects; 32 MiB keeps them. A full index of
// Kubernetes and GOROOT/src (19.5k files, packed), in turns: peak RSS
// 446–470 MB against 470–489 MB with the default, at the same time.
const objectCache = 32 * cache.MiByte

func (r *Repo) open() (*git.Repository, error) {
	var fs billy.Filesystem = osfs.New(r.GitDir)
	if r.CommonDir != r.GitDir {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(r.CommonDir))
	}
	// Alternates (clones made with --shared or --reference) name other
	// object directories by absolute path, which go-git resolves on
	// AlternatesFS: the root, not the chroot of this git directory.
	st := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(objectCache), filesystem.Options{KeepDescriptors: true, AlternatesFS: osfs.New("/")})
	var wt billy.Filesystem
	if r.WorkTree != "" {
		wt = osfs.New(r.WorkTree)
	}
	return git.Open(st, wt)
}

// findGitDir walks up from dir to the first ".git" directory or gitfile, or
// recognises dir itself as a bare repository.
func findGitDir(dir string) (gitDir, workTree string, err error) {
	for d := dir; ; {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p, d, nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return "", "", fmt.Errorf("read %s: %w", p, err)
			}
			target, ok := bytes.CutPrefix(bytes.TrimSpace(b), []byte("gitdir:"))
			if !ok {
				return "", "", fmt.Errorf("%s: not a gitfile", p)
			}
			g := strings.TrimSpace(string(target))
			if !filepath.IsAbs(g) {
				g = filepath.Join(d, g)
			}
			return filepath.Clean(g), d, nil
		}
		if isBareGitDir(d) {
			return d, "", nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", fmt.Errorf("%w (or any parent up to /): %s", ErrNotRepository, dir)
		}
		d = parent
	}
}

func isBareGitDir(d string) bool {
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, name)); err != nil {
			return false
		}
	}
	return true
}

// reopen opens the repository again. go-git lists the pack files once; when
// git repacks meanwhile (git gc --auto runs in the background after a large
// commit) objects seem to vanish until the repository is reopened. Callers
// retry once after an error.
func (r *Repo) reopen() bool {
	if r.workDir == "" {
		return false
	}
	g, err := r.open()
	if err != nil {
		return false
	}
	r.closeGit()
	r.Git = g
	// The packs opened before stay open until nothing uses them.
	r.packs = newPackSet(filepath.Join(r.CommonDir, "objects"))
	return true
}

// Close releases the pack files the repository keeps open or mapped.
func (r *Repo) Close() error {
	r.packs.close()
	return r.closeGit()
}

func (r *Repo) closeGit() error {
	if st, ok := r.Git.Storer.(*filesystem.Storage); ok {
		return st.Close()
	}
	return nil
}

// object returns the content of object h of type want (nil when its size
// exceeds max, for max >= 0) and its size, from its loose file or its
// pack. ok is false when it is neither there nor readable there: the
// caller asks go-git, which also knows alternate object directories,
// unless err says that its loose file, with no packed copy to read
// instead, is damaged.
func (r *Repo) object(h plumbing.Hash, want plumbing.ObjectType, max int64) (content []byte, size int64, ok bool, err error) {
	var looseErr error
	if r.loose.contains(h) {
		if content, size, ok, looseErr = r.loose.read(h, want, max); ok {
			return content, size, true, nil
		}
	}
	if content, size, ok, err = r.packs.read(h, want, max); ok && err == nil {
		return content, size, true, nil
	}
	return nil, 0, false, looseErr
}

// commitObject reads a commit as CommitObject does, without go-git when
// it can. The result has no storer: its Parent methods cannot be used.
func (r *Repo) commitObject(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := r.ownCommit(h); ok {
		return c, nil
	}
	return r.CommitObject(h)
}

// ownCommit reads a commit with the repository's own loose and pack
// readers, which are safe for concurrent use and do not load go-git's
// index of a pack: ok is false when they cannot.
func (r *Repo) ownCommit(h plumbing.Hash) (*object.Commit, bool) {
	b, _, ok, _ := r.object(h, plumbing.CommitObject, -1)
	if !ok {
		return nil, false
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(plumbing.CommitObject)
	obj.Write(b)
	var c object.Commit
	if err := c.Decode(obj); err != nil {
		return nil, false
	}
	return &c, true
}

// CommitObject reads a commit.
func (r *Repo) CommitObject(h plumbing.Hash) (*object.Commit, error) {
	c, err := r.Git.CommitObject(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) && r.reopen() {
		c, err = r.Git.CommitObject(h)
	}
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	return c, nil
}

// blobObject finds a blob, reopening the repository once if it seems to
// be missing (see reopen).
func (r *Repo) blobObject(h plumbing.Hash) (plumbing.EncodedObject, error) {
	obj, err := r.Git.Storer.EncodedObject(plumbing.BlobObject, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) && r.reopen() {
		obj, err = r.Git.Storer.EncodedObject(plumbing.BlobObject, h)
	}
	return obj, err
}

// ReadBlob returns a blob's content.
func (r *Repo) ReadBlob(h plumbing.Hash) ([]byte, error) {
	b, _, err := r.ReadBlobUpTo(h, -1)
	return b, err
}

// ReadBlobUpTo returns a blob's size and, unless the size exceeds max (when
// max >= 0), its content, looking the object up once. ReadBlob and
// ReadBlobUpTo may be called from several goroutines at once.
func (r *Repo) ReadBlobUpTo(h plumbing.Hash, max int64) ([]byte, int64, error) {
	if b, size, ok, err := r.object(h, plumbing.BlobObject, max); ok || err != nil {
		return b, size, err
	}
	r.gitMu.Lock()
	defer r.gitMu.Unlock()
	obj, err := r.blobObject(h)
	if err != nil {
		return nil, 0, fmt.Errorf("read blob %s: %w", h, err)
	}
	size := obj.Size()
	if max >= 0 && size > max {
		return nil, size, nil
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, 0, fmt.Errorf("read blob %s: %w", h, err)
	}
	defer rd.Close()
	// Room for one read past the end: bytes.Buffer.ReadFrom wants MinRead
	// bytes free before each read, and would otherwise double a buffer the
	// blob already fills just to see EOF.
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(rd); err != nil {
		return nil, 0, fmt.Errorf("read blob %s: %w", h, err)
	}
	return buf.Bytes(), size, nil
}

// BlobSize returns a blob's size without inflating it.
func (r *Repo) BlobSize(h plumbing.Hash) (int64, error) {
	obj, err := r.blobObject(h)
	if err != nil {
		return 0, fmt.Errorf("read blob %s: %w", h, err)
	}
	return obj.Size(), nil
}
