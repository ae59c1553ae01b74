package relevance

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"time"
)

// Metrics are mean scores over queries (for a repository) or over
// repositories' means (for a language, a category, a subset or all).
type Metrics struct {
	Repos   int     `json:"repos,omitempty"`
	Queries int     `json:"queries"`
	NDCG10  float64 `json:"ndcg10"`
	NDCG5   float64 `json:"ndcg5"`
	Hit1    float64 `json:"file_hit1"`
	Hit3    float64 `json:"file_hit3"`
}

// Reference is another system's published figures for one repository.
type Reference struct {
	NDCG10     float64            `json:"ndcg10"`
	ByCategory map[string]float64 `json:"by_category,omitempty"`
}

// RepoReport is one repository's run.
type RepoReport struct {
	Name     string  `json:"name"`
	Language string  `json:"language"`
	Chunks   int     `json:"chunks"`
	IndexMs  float64 `json:"index_ms"` // 0: an index built before was reused
	P50ms    float64 `json:"p50_ms"`   // hybrid, in-process, median over queries
	Queries  int     `json:"queries"`
	// Modes and ByCategory (category → mode) are means over the queries.
	Modes      map[string]Metrics            `json:"modes"`
	ByCategory map[string]map[string]Metrics `json:"by_category"`
	Reference  *Reference                    `json:"reference,omitempty"`
	PerQuery   []QueryReport                 `json:"per_query,omitempty"`
}

// QueryReport is one query's ranks in every mode (Config.PerQuery).
type QueryReport struct {
	Query    string                 `json:"query"`
	Category string                 `json:"category"`
	Targets  []Target               `json:"targets"`
	Present  []bool                 `json:"present"`
	Modes    map[string]QueryResult `json:"modes"`
}

// QueryResult is one mode's answer to one query: NDCG@10, each target's
// rank (0: not in the top 10) and the hits.
type QueryResult struct {
	NDCG10 float64 `json:"ndcg10"`
	Ranks  []int   `json:"ranks"`
	Top    []Span  `json:"top"`
}

// Group is an aggregate over repositories: per mode, the mean of their
// means, and the reference's mean over the same repositories.
type Group struct {
	Name      string             `json:"name"`
	Repos     []string           `json:"repos"`
	Modes     map[string]Metrics `json:"modes"`
	Reference *float64           `json:"reference_ndcg10,omitempty"`
	IndexMs   float64            `json:"index_ms"`
	P50ms     float64            `json:"p50_ms"`
}

// Skipped is a repository left out, and why.
type Skipped struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Report is a suite run.
type Report struct {
	Suite         string       `json:"suite"`
	Command       string       `json:"command,omitempty"`
	Model         string       `json:"model"`
	Modes         []string     `json:"modes"`
	Started       time.Time    `json:"started"`
	Elapsed       string       `json:"elapsed"`
	Load          string       `json:"load,omitempty"`
	All           Group        `json:"all"`
	ByLanguage    []Group      `json:"by_language"`
	ByCategory    []Group      `json:"by_category"`
	Subsets       []Group      `json:"subsets,omitempty"`
	Repos         []RepoReport `json:"repos"`
	Skipped       []Skipped    `json:"skipped,omitempty"`
	NoAnnotations []string     `json:"no_annotations,omitempty"`
}

// aggregate fills the groups from the repositories.
func (r *Report) aggregate(subsets map[string][]string) {
	all := func(RepoReport) bool { return true }
	r.All = r.group("all", all, "")
	langs := map[string]bool{}
	cats := map[string]bool{}
	for _, rr := range r.Repos {
		langs[rr.Language] = true
		for c := range rr.ByCategory {
			cats[c] = true
		}
	}
	for _, l := range sortedKeys(langs) {
		r.ByLanguage = append(r.ByLanguage, r.group(l, func(rr RepoReport) bool { return rr.Language == l }, ""))
	}
	for _, c := range sortedKeys(cats) {
		r.ByCategory = append(r.ByCategory, r.group(c, func(rr RepoReport) bool { return rr.ByCategory[c] != nil }, c))
	}
	names := make([]string, 0, len(subsets))
	for n := range subsets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		r.Subsets = append(r.Subsets, r.group(n, func(rr RepoReport) bool { return slices.Contains(subsets[n], rr.Name) }, ""))
	}
}

// group averages the repositories in, per mode, over their whole means or
// (category set) their means over that category's queries.
func (r *Report) group(name string, in func(RepoReport) bool, category string) Group {
	g := Group{Name: name, Modes: map[string]Metrics{}}
	var refSum float64
	refN := 0
	for _, rr := range r.Repos {
		if !in(rr) {
			continue
		}
		g.Repos = append(g.Repos, rr.Name)
		g.IndexMs += rr.IndexMs
		g.P50ms += rr.P50ms
		ms := rr.Modes
		if category != "" {
			ms = rr.ByCategory[category]
		}
		for m, x := range ms {
			s := g.Modes[m]
			s.Repos++
			s.Queries += x.Queries
			s.NDCG10 += x.NDCG10
			s.NDCG5 += x.NDCG5
			s.Hit1 += x.Hit1
			s.Hit3 += x.Hit3
			g.Modes[m] = s
		}
		if rr.Reference != nil {
			v, ok := rr.Reference.NDCG10, true
			if category != "" {
				v, ok = rr.Reference.ByCategory[category]
			}
			if ok {
				refSum += v
				refN++
			}
		}
	}
	for m, s := range g.Modes {
		n := float64(s.Repos)
		s.NDCG10, s.NDCG5, s.Hit1, s.Hit3 = s.NDCG10/n, s.NDCG5/n, s.Hit1/n, s.Hit3/n
		g.Modes[m] = s
	}
	if n := float64(len(g.Repos)); n > 0 {
		g.IndexMs /= n
		g.P50ms /= n
	}
	if refN > 0 && refN == len(g.Repos) {
		v := refSum / float64(refN)
		g.Reference = &v
	}
	return g
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// LoadReference reads another system's per-repository figures in the
// shape of semble's results files: {"repos": [{"repo", "ndcg10",
// "by_category": {...}}]}.
func LoadReference(path string) (map[string]Reference, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read reference figures: %w", err)
	}
	var f struct {
		Repos []struct {
			Repo string `json:"repo"`
			Reference
		} `json:"repos"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("read reference figures %s: %w", path, err)
	}
	out := map[string]Reference{}
	for _, r := range f.Repos {
		out[r.Repo] = r.Reference
	}
	return out, nil
}
