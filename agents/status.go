package agents

import (
	"path/filepath"
)

// State is how one file stands.
type State struct {
	Agent string // "" for an instruction file
	Path  string
	User  bool
	// What: "installed", "not installed", "no file", "other entry"
	// (an entry named bcindex not written by install), or "unreadable".
	What    string
	Present bool // the agent looks installed for this user
	Err     error
}

// Status reports every supported agent's project and user files, and
// the instruction files.
func Status(e Env) []State {
	var out []State
	for _, a := range All {
		for _, user := range []bool{false, true} {
			p := a.Path(e, user)
			s := State{Agent: a.Name, Path: p, User: user, Present: a.Present(e)}
			data, err := read(p)
			switch {
			case err != nil:
				s.What, s.Err = "unreadable", err
			case data == nil:
				s.What = "no file"
			default:
				var st jsonState
				if a.Key == "" {
					st, err = stateTOML(data)
				} else {
					st, err = stateJSON(a, data)
				}
				s.What = map[jsonState]string{absent: "not installed", ours: "installed", foreign: "other entry"}[st]
				if err != nil {
					s.What, s.Err = "unreadable", err
				}
			}
			out = append(out, s)
		}
	}
	for _, name := range instructionFiles(All) {
		p := filepath.Join(e.Root, name)
		s := State{Path: p}
		data, err := read(p)
		switch {
		case err != nil:
			s.What, s.Err = "unreadable", err
		case data == nil:
			s.What = "no file"
		case hasSection(data):
			s.What = "installed"
		default:
			s.What = "not installed"
		}
		out = append(out, s)
	}
	return out
}
