package bcindex

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPackageMapMatchesImports keeps doc.go's map true: it lists every
// package of the module but the commands, each imports only packages listed
// below it or helpers under internal/, and every helper is listed.
func TestPackageMapMatchesImports(t *testing.T) {
	const module = "github.com/bcindex/bcindex/"
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var order, helpers []string
	for _, m := range regexp.MustCompile(`(?m)^//\t([a-z][a-z/]*)\s`).FindAllStringSubmatch(string(src), -1) {
		if strings.HasPrefix(m[1], "internal/") {
			helpers = append(helpers, m[1])
		} else {
			order = append(order, m[1])
		}
	}
	for _, fields := range goList(t, `{{.ImportPath}} {{join .Imports " "}}`) {
		pkg := strings.TrimPrefix(fields[0], module)
		if pkg == fields[0] || strings.HasPrefix(pkg, "cmd/") {
			continue // the root package and the commands
		}
		if strings.HasPrefix(pkg, "internal/") {
			if !slices.Contains(helpers, pkg) {
				t.Errorf("doc.go does not list the helper %s", pkg)
			}
			continue
		}
		at := slices.Index(order, pkg)
		if at < 0 {
			t.Errorf("doc.go's map does not list %s", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok || strings.HasPrefix(dep, "internal/") {
				continue
			}
			if i := slices.Index(order, dep); i <= at {
				t.Errorf("%s imports %s, which doc.go's map lists above it", pkg, dep)
			}
		}
	}
}

// goList runs go list over the module with a template, one line per
// package split into fields.
func goList(t *testing.T, template string) [][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", template, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var pkgs [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkgs = append(pkgs, strings.Fields(line))
	}
	return pkgs
}

// TestFakesOnlyInTests: the test fakes under internal/testkit are imported
// by tests only (and by each other); a program linking one would ship a
// stand-in for a server.
func TestFakesOnlyInTests(t *testing.T) {
	const fakes = "github.com/bcindex/bcindex/internal/testkit/"
	tested := 0
	for _, fields := range goList(t, `{{.ImportPath}} {{join .Imports " "}} | {{join .TestImports " "}} {{join .XTestImports " "}}`) {
		pkg, inTests := fields[0], false
		for _, imp := range fields[1:] {
			switch {
			case imp == "|":
				inTests = true
			case !strings.HasPrefix(imp, fakes):
			case inTests:
				tested++
			case !strings.HasPrefix(pkg, fakes):
				t.Errorf("%s imports the test fake %s outside its tests", pkg, imp)
			}
		}
	}
	if tested == 0 {
		t.Errorf("no test imports a package under %s: is the path still right?", fakes)
	}
}

// TestDocsShortAndLinked keeps the README to what a user needs first (the
// rest lives in pages under doc/) and every relative link of the README
// and those pages pointing at a file that exists.
func TestDocsShortAndLinked(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 300 {
		t.Errorf("README.md has %d lines; keep it to 300 and move the rest to a page under doc/", n)
	}
	pages, _ := filepath.Glob("doc/*.md")
	link := regexp.MustCompile(`\]\(([^)#]+)(#[^)]*)?\)`)
	for _, page := range append([]string{"README.md"}, pages...) {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(src), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, target)
			}
		}
	}
}

// TestDesignMatchesImports keeps doc/design.md's package table and its
// "who writes what" true: every package of the module is in the table,
// every writer named exists, and no reader imports a writer, directly or
// through another package.
func TestDesignMatchesImports(t *testing.T) {
	const module = "github.com/bcindex/bcindex/"
	src, err := os.ReadFile("doc/design.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	row := regexp.MustCompile("(?m)^\\| `([a-z][a-z/-]*)` \\|")
	listed := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(doc[:strings.Index(doc, "| writer | writes |")], -1) {
		listed[m[1]] = true
	}
	at := strings.Index(doc, "| writer | writes |")
	end := strings.Index(doc[at:], "\n\n")
	var writers []string
	for _, m := range row.FindAllStringSubmatch(doc[at:at+end], -1) {
		writers = append(writers, m[1])
	}
	rm := regexp.MustCompile("(?m)^Readers: (.*)\\.$").FindStringSubmatch(doc)
	if len(writers) == 0 || rm == nil {
		t.Fatal("doc/design.md has no writers table or no Readers line")
	}
	var readers []string
	for _, r := range strings.Split(rm[1], ",") {
		readers = append(readers, strings.Trim(strings.TrimSpace(r), "`"))
	}
	pkgs := map[string][]string{} // package → its packages of the module, every one it depends on
	for _, fields := range goList(t, `{{.ImportPath}} {{join .Deps " "}}`) {
		pkg := strings.TrimPrefix(fields[0], module)
		for _, d := range fields[1:] {
			if dep, ok := strings.CutPrefix(d, module); ok {
				pkgs[pkg] = append(pkgs[pkg], dep)
			}
		}
		if _, ok := pkgs[pkg]; !ok {
			pkgs[pkg] = nil
		}
	}
	for pkg := range pkgs {
		if pkg != strings.TrimSuffix(module, "/") && !listed[pkg] {
			t.Errorf("doc/design.md's package table does not list %s", pkg)
		}
	}
	for _, w := range append(append([]string{}, writers...), readers...) {
		if _, ok := pkgs[w]; !ok {
			t.Errorf("doc/design.md names %s, which is no package of the module", w)
		}
	}
	for _, r := range readers {
		for _, dep := range pkgs[r] {
			if slices.Contains(writers, dep) {
				t.Errorf("%s, a reader, depends on %s, a writer", r, dep)
			}
		}
	}
}

// TestDependenciesListed keeps doc/design.md's dependency table true: every
// module go.mod requires directly has a row saying why it is there, and
// every row names a module go.mod requires.
func TestDependenciesListed(t *testing.T) {
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	direct := map[string]bool{}
	req := regexp.MustCompile(`(?m)^\s*(?:require\s+)?([a-z0-9.\-]+\.[a-z]+/[^\s]+) v[^\s]+\s*(// indirect)?$`)
	for _, m := range req.FindAllStringSubmatch(string(gomod), -1) {
		if m[2] == "" {
			direct[m[1]] = true
		}
	}
	if len(direct) == 0 {
		t.Fatal("no direct requirement read from go.mod: has its layout changed?")
	}
	design, err := os.ReadFile("doc/design.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(design)
	at := strings.Index(doc, "## Dependencies")
	if at < 0 {
		t.Fatal("doc/design.md has no Dependencies section")
	}
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(doc[at:], -1) {
		rows[m[1]] = true
		if !direct[m[1]] {
			t.Errorf("doc/design.md's dependency table lists %s, which go.mod does not require directly", m[1])
		}
	}
	for mod := range direct {
		if !rows[mod] {
			t.Errorf("go.mod requires %s, which doc/design.md's dependency table does not list", mod)
		}
	}
}

// TestDocsNameFilesThatExist: every repository path the README, doc.go, the
// pages under doc/ and the packages' READMEs spell in backquotes (a path
// under one of the module's top-level directories) exists. Paths inside
// the git directory and files a command writes ("into `x`") are not files
// of the repository.
func TestDocsNameFilesThatExist(t *testing.T) {
	top, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{}
	for _, e := range top {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs[e.Name()] = true
		}
	}
	pages := []string{"README.md", "doc.go"}
	for _, glob := range []string{"doc/*.md", "*/README.md", "cmd/*/README.md"} {
		m, _ := filepath.Glob(glob)
		pages = append(pages, m...)
	}
	quoted := regexp.MustCompile("(into\\s+|to\\s+)?`([A-Za-z0-9_.\\-/]+?)/?(?::[0-9]+)?`")
	checked := 0
	for _, page := range pages {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range quoted.FindAllStringSubmatch(string(src), -1) {
			path := m[2]
			first, _, nested := strings.Cut(path, "/")
			if !nested || !dirs[first] || m[1] != "" {
				continue
			}
			checked++
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s names %s, which does not exist", page, path)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d paths checked: has the docs' way of quoting paths changed?", checked)
	}
}

// TestSegmentLayoutSpelledOnce: the segments' directory, the manifest's
// name and the IDs are spelled by package segment alone (segment.Root,
// ManifestPath, ID, Dir, File); every other package asks it.
func TestSegmentLayoutSpelledOnce(t *testing.T) {
	spelled := regexp.MustCompile(`"segments"|"MANIFEST"|"%08d"`)
	tag := regexp.MustCompile("`json:\"segments[^`]*`")
	files := 0
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(path, "segment/") {
			return nil
		}
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(tag.ReplaceAllString(string(src), ""), "\n") {
			if spelled.MatchString(line) && !strings.Contains(line, "Badger MANIFEST") {
				t.Errorf("%s:%d spells the segments' layout: %s (use package segment's Root, ManifestPath, ID, Dir or File)", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Errorf("only %d Go files read", files)
	}
}
