package reserved

import "testing"

// TestIs: module paths (with a version suffix too) and registry package
// names are reserved; names that merely start like one are not.
func TestIs(t *testing.T) {
	for _, n := range []string{"github.com/spf13/cobra", "github.com/gin-gonic/gin/v2", "python3-requests", "python3-click", "commander", "github.com/google/gson", "GitHub.com/Spf13/Cobra"} {
		if !Is(n) {
			t.Errorf("%s is not reserved", n)
		}
	}
	for _, n := range []string{"github.com/spf13/viper", "python3-jinja2", "lodash", "commander-extra", "github.com/spf13/cobra-cli"} {
		if Is(n) {
			t.Errorf("%s is reserved", n)
		}
	}
}
