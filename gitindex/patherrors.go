package gitindex

// PathError is a file of a revision that is not indexed because of its
// path (SkipBadPath).
type PathError struct {
	Path    string `json:"path"`
	Skipped string `json:"skipped"` // the skip reason
	Detail  string `json:"detail"`
}

// PathErrors lists the files of rev skipped for their paths, in path order.
func (r *Repo) PathErrors(rev string) ([]PathError, error) {
	c, err := r.Resolve(rev)
	if err != nil {
		return nil, err
	}
	l, err := r.Listing(c.Tree)
	if err != nil {
		return nil, err
	}
	var out []PathError
	for _, e := range l.Entries {
		if e.Skip == SkipBadPath {
			out = append(out, PathError{Path: e.Path, Skipped: e.Skip, Detail: badPath(e.Path)})
		}
	}
	return out, nil
}
