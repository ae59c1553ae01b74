package hooks

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// manualStep returns what to add by hand to a hook bcindex cannot extend,
// in the hook's own language: the language's name ("" for shell) and the
// lines. A hook in a language it does not know gets the command to run
// and how.
func manualStep(name string, content []byte) (lang, lines string) {
	switch interp := vocab.Interpreter(content); {
	case bytes.IndexByte(content, 0) >= 0 || len(content) == 0 && interp == "":
		// A binary (or nothing readable): only the command can be named.
	case isShellScript(content):
		return "", block(name, false)
	case strings.HasPrefix(interp, "python"):
		return "Python", fmt.Sprintf(`# Keeps the bcindex search index fresh in the background (GIT_BCINDEX_SKIP=1 turns it off).
import os as _os, shutil as _shutil, subprocess as _subprocess, sys as _sys
if _os.environ.get("GIT_BCINDEX_SKIP", "0") != "1" and _shutil.which("git-bcindex"):
    _subprocess.Popen(["git-bcindex", "hook", "run", %q] + _sys.argv[1:], stdin=_subprocess.DEVNULL,
                      stdout=_subprocess.DEVNULL, stderr=_subprocess.DEVNULL, start_new_session=True)
`, name)
	case interp == "node" || interp == "nodejs" || interp == "bun" || interp == "deno":
		return "JavaScript", fmt.Sprintf(`// Keeps the bcindex search index fresh in the background (GIT_BCINDEX_SKIP=1 turns it off).
if ((process.env.GIT_BCINDEX_SKIP || "0") !== "1") {
  const child = require("child_process").spawn("git-bcindex", ["hook", "run", %q, ...process.argv.slice(2)],
    { stdio: "ignore", detached: true });
  child.on("error", () => {}); // not installed: nothing to do
  child.unref();
}
`, name)
	case strings.HasPrefix(interp, "ruby"):
		return "Ruby", fmt.Sprintf(`# Keeps the bcindex search index fresh in the background (GIT_BCINDEX_SKIP=1 turns it off).
if ENV.fetch("GIT_BCINDEX_SKIP", "0") != "1"
  begin
    Process.detach(spawn("git-bcindex", "hook", "run", %q, *ARGV, in: File::NULL, out: File::NULL, err: File::NULL, pgroup: true))
  rescue SystemCallError
    # git-bcindex is not installed: nothing to do
  end
end
`, name)
	case strings.HasPrefix(interp, "perl"):
		return "Perl", fmt.Sprintf(`# Keeps the bcindex search index fresh in the background (GIT_BCINDEX_SKIP=1 turns it off).
if (($ENV{GIT_BCINDEX_SKIP} // "0") ne "1") {
    my $pid = fork();
    if (defined $pid && $pid == 0) {
        open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">", "/dev/null");
        exec("git-bcindex", "hook", "run", %q, @ARGV) or exit(0);
    }
}
`, name)
	}
	return "", fmt.Sprintf("a call, in the background with its output and status ignored (skipped when GIT_BCINDEX_SKIP=1), of:\n    git-bcindex hook run %s ARGS...\nwhere ARGS are the hook's own arguments\n", name)
}
