package reserved

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeldOut: a benchmark repository is held out under its module path and
// under the names the registries give its code; other packages are not.
func TestHeldOut(t *testing.T) {
	for name, repo := range map[string]string{
		"github.com/go-chi/chi/v5":         "go-chi/chi",
		"https://github.com/rack/rack.git": "rack/rack",
		"github.com/hibiken/asynq":         "hibiken/asynq",
		"python3-flask":                    "pallets/flask",
		"python3-aiohttp":                  "aio-libs/aiohttp",
		"express":                          "expressjs/express",
		"node-express":                     "expressjs/express",
		"@trpc/server":                     "trpc/trpc",
		"@vitest/runner":                   "vitest-dev/vitest",
		"librust-tokio-dev":                "tokio-rs/tokio",
		"librust-tokio-util-dev":           "tokio-rs/tokio",
		"librust-serde-derive-dev":         "serde-rs/serde",
		"ruby-sinatra":                     "sinatra/sinatra",
		"ruby-rack-protection":             "sinatra/sinatra",
		"ruby-activerecord":                "rails/rails",
		"php-laravel-framework":            "laravel/framework",
		"php-guzzlehttp-guzzle":            "guzzle/guzzle",
		"php-monolog":                      "Seldaek/monolog",
		"libjackson2-databind-java":        "FasterXML/jackson-databind",
		"libcommons-lang3-java":            "apache/commons-lang",
		"libnewtonsoft-json-cil-dev":       "JamesNK/Newtonsoft.Json",
		"nlohmann-json3-dev":               "nlohmann/json",
		"libfmt-dev":                       "fmtlib/fmt",
		"libabsl-dev":                      "abseil/abseil-cpp",
		"libcurl4-openssl-dev":             "curl/curl",
		"libuv1-dev":                       "libuv/libuv",
		"bats":                             "bats-core/bats-core",
		"libghc-aeson-dev":                 "haskell/aeson",
		"golang-github-go-chi-chi-dev":     "go-chi/chi",
		"lua5.4":                           "lua/lua",
		"liblua5.3-dev":                    "lua/lua",
		"php-slim":                         "slimphp/Slim",
		"php-twig-intl-extra":              "twigphp/Twig",
		"libspdlog-dev":                    "gabime/spdlog",
		"libyaml-cpp-dev":                  "jbeder/yaml-cpp",
		"ruby-carrierwave":                 "carrierwaveuploader/carrierwave",
		"python3-dramatiq":                 "Bogdanp/dramatiq",
		"httpie":                           "httpie/cli",
		"libjsoup-java":                    "jhy/jsoup",
		"librust-minijinja-dev":            "mitsuhiko/minijinja",
		"alpinejs":                         "alpinejs/alpine",
		"jq":                               "jqlang/jq",
	} {
		got, ok := HeldOut(name)
		if !ok || got != repo {
			t.Errorf("HeldOut(%q) = %q, %v; want %q", name, got, ok, repo)
		}
	}
	for _, name := range []string{
		"github.com/goccy/go-json", "github.com/tidwall/gjson", "golang.org/x/net/http2",
		"python3-jinja2", "lodash", "lua-penlight", "php-symfony-console", "librust-regex-dev",
		"ruby-addressable", "elixir", "scala", "kotlin", "glib2.0", "libstdc++", "sqlite3",
		"github.com/gin-contrib/sse", "python3-flask-sqlalchemy", "librust-tokio-rustls-dev",
		// Clients and bindings named after a benchmark's project are
		// other projects.
		"python3-redis", "ruby-redis", "librust-curl-dev", "librust-http-dev", "librust-json-dev",
		"ruby-slim", "node-cli", "lua-json",
	} {
		if repo, ok := HeldOut(name); ok {
			t.Errorf("HeldOut(%q) = %q: not a benchmark repository", name, repo)
		}
	}
}

// TestHeldOutCoversDevSuite: every repository of the project's dev suite
// is in the list, so adding one to the suite without holding it out fails.
func TestHeldOutCoversDevSuite(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "bench", "suites", "dev", "repos.json"))
	if err != nil {
		t.Fatal(err)
	}
	var repos []struct{ Name, URL string }
	if err := json.Unmarshal(data, &repos); err != nil {
		t.Fatal(err)
	}
	if len(repos) < 24 {
		t.Fatalf("dev suite has %d repositories", len(repos))
	}
	for _, r := range repos {
		if _, ok := HeldOut(r.URL); !ok {
			t.Errorf("dev suite repository %s (%s) is not held out", r.Name, r.URL)
		}
	}
	if n := len(Benchmarks()); n < 62+24 {
		t.Errorf("%d held-out repositories, want semble's 64 and the dev suite", n)
	}
	for _, r := range Benchmarks() {
		if got, ok := HeldOut("github.com/" + r); !ok || !strings.EqualFold(got, r) {
			t.Errorf("%s does not hold itself out", r)
		}
	}
}
