package reserved

import (
	"strings"
)

// A benchmarkRepo is one repository of a code-search benchmark: its GitHub
// owner/name and the names its code goes by in the package registries
// (Debian, npm, crates...), spelled without the registry's affixes
// (python3-, ruby-, librust-…-dev; see registryStems). Its name, alone and
// after its owner's, is such a name too, unless the name is generic: then a
// package spelled like it (python3-redis, a client of Redis) is another
// project's, and only the names listed in exact, spelled in full, are the
// repository's.
type benchmarkRepo struct {
	repo    string
	aliases []string
	exact   []string
}

// generic marks a repository whose bare name is not its own in the
// registries: its aliases and exact names are.
const generic = "!"

// semble is the held-out test of ranking: the repositories of the public
// benchmark of MinishLab/semble (benchmarks/repos.json).
var semble = []benchmarkRepo{
	{"aio-libs/aiohttp", nil, nil},
	{"fastapi/fastapi", nil, nil},
	{"pallets/flask", nil, nil},
	{"encode/httpx", nil, nil},
	{"MinishLab/model2vec", nil, nil},
	{"pydantic/pydantic", []string{"pydantic-core", "pydantic-settings"}, nil},
	{"psf/requests", nil, nil},
	{"encode/starlette", nil, nil},
	{"pallets/click", nil, nil},
	{"axios/axios", nil, nil},
	{"expressjs/express", nil, nil},
	{"reduxjs/redux", nil, nil},
	{"gin-gonic/gin", nil, nil},
	{"spf13/cobra", nil, nil},
	{"go-chi/chi", nil, nil},
	{"google/gson", nil, nil},
	{"apache/commons-lang", []string{"commons-lang3", "commons-lang2"}, nil},
	{"FasterXML/jackson-databind", []string{"jackson2-databind"}, nil},
	{"guzzle/guzzle", []string{"guzzlehttp-guzzle"}, nil},
	{"Seldaek/monolog", nil, nil},
	{"laravel/framework", []string{generic, "laravel-framework", "illuminate"}, nil},
	{"sinatra/sinatra", []string{"sinatra-contrib", "rack-protection"}, nil},
	{"rack/rack", nil, nil},
	{"rails/rails", []string{"actioncable", "actionmailbox", "actionmailer", "actionpack", "actiontext",
		"actionview", "activejob", "activemodel", "activerecord", "activestorage", "activesupport", "railties"}, nil},
	{"tokio-rs/tokio", []string{"tokio-macros", "tokio-stream", "tokio-test", "tokio-util"}, nil},
	{"serde-rs/serde", []string{"serde-derive", "serde-derive-internals", "serde-test"}, nil},
	{"tokio-rs/axum", []string{"axum-core", "axum-macros", "axum-extra"}, nil},
	{"trpc/trpc", nil, nil},
	{"colinhacks/zod", nil, nil},
	{"vitest-dev/vitest", nil, nil},
	{"neuecc/MessagePack-CSharp", []string{"messagepack-csharp"}, nil},
	{"JamesNK/Newtonsoft.Json", nil, nil},
	{"DapperLib/Dapper", nil, nil},
	{"ktorio/ktor", nil, nil},
	{"Kotlin/kotlinx.coroutines", []string{"kotlinx-coroutines"}, nil},
	{"JetBrains/Exposed", nil, nil},
	{"typelevel/cats", []string{"cats-core", "cats-effect"}, nil},
	{"circe/circe", nil, nil},
	{"http4s/http4s", nil, nil},
	{"Alamofire/Alamofire", nil, nil},
	{"vapor/vapor", nil, nil},
	{"ReactiveX/RxSwift", nil, nil},
	{"phoenixframework/phoenix", nil, nil},
	{"elixir-plug/plug", nil, nil},
	{"elixir-ecto/ecto", nil, nil},
	{"nlohmann/json", []string{generic, "nlohmann-json", "nlohmann-json3"}, nil},
	{"abseil/abseil-cpp", []string{"absl", "abseil"}, nil},
	{"fmtlib/fmt", nil, nil},
	{"curl/curl", []string{generic, "curl4-openssl", "curl4-gnutls", "curl4-nss", "curl3-gnutls", "curl3-nss", "curl4"}, []string{"curl", "libcurl"}},
	{"redis/redis", []string{generic, "redis-server", "redis-tools", "redis-sentinel"}, []string{"redis"}},
	{"libuv/libuv", []string{"uv1", "libuv1"}, nil},
	{"bats-core/bats-core", []string{"bats"}, nil},
	{"nvm-sh/nvm", nil, nil},
	{"Bash-it/bash-it", nil, nil},
	{"haskell/aeson", nil, nil},
	{"jgm/pandoc", []string{"pandoc-data"}, nil},
	{"xmonad/xmonad", nil, nil},
	{"dart-lang/http", []string{generic, "dart-http"}, nil},
	{"nvim-telescope/telescope.nvim", nil, nil},
	{"folke/lazy.nvim", nil, nil},
	{"echasnovski/mini.nvim", nil, nil},
	{"ziglang/zig", nil, nil},
	{"zigtools/zls", nil, nil},
	{"Hejsil/zig-clap", nil, nil},
}

// devSuite is the project's own ranking suite (bench/suites/dev/repos.json),
// tuned on.
var devSuite = []benchmarkRepo{
	{"alpinejs/alpine", []string{"alpinejs"}, nil},
	{"hibiken/asynq", nil, nil},
	{"carrierwaveuploader/carrierwave", nil, nil},
	{"Bogdanp/dramatiq", nil, nil},
	{"FluentValidation/FluentValidation", nil, nil},
	{"lewis6991/gitsigns.nvim", nil, nil},
	{"brettwooldridge/HikariCP", nil, nil},
	{"honojs/hono", nil, nil},
	{"httpie/cli", []string{generic, "httpie"}, nil},
	{"jqlang/jq", []string{"libjq", "libjq1"}, nil},
	{"jhy/jsoup", nil, nil},
	{"casey/just", nil, nil},
	{"onevcat/Kingfisher", nil, nil},
	{"InsertKoinIO/koin", nil, nil},
	{"kysely-org/kysely", nil, nil},
	{"lua/lua", []string{generic, "lua5.1", "lua5.2", "lua5.3", "lua5.4", "liblua5.1", "liblua5.2", "liblua5.3", "liblua5.4", "luajit"}, nil},
	{"mitsuhiko/minijinja", nil, nil},
	{"nsqio/nsq", nil, nil},
	{"pry/pry", nil, nil},
	{"serilog/serilog", nil, nil},
	{"slick/slick", nil, nil},
	{"slimphp/Slim", []string{generic, "slimphp-slim"}, []string{"php-slim"}},
	{"gabime/spdlog", nil, nil},
	{"stylus/stylus", nil, nil},
	{"elixir-tesla/tesla", nil, nil},
	{"twigphp/Twig", []string{"twig-extra-bundle", "twig-intl-extra", "twig-cssinliner-extra", "twig-html-extra",
		"twig-inky-extra", "twig-markdown-extra", "twig-string-extra", "twig-cache-extra"}, nil},
	{"jbeder/yaml-cpp", nil, nil},
}

// HeldOut reports whether a package is the code of a repository of a
// ranking benchmark (semble's held-out set or the project's dev suite) and
// which one, so that no model is trained or tuned on it. name is a Go module
// path, a GitHub owner/name, or a Debian or npm package name.
func HeldOut(name string) (repo string, ok bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "https://")
	var stems []string
	switch {
	case strings.HasPrefix(n, "github.com/"):
		// A module path or URL: owner/name, any subdirectory or version.
		parts := strings.SplitN(strings.TrimPrefix(n, "github.com/"), "/", 3)
		if len(parts) < 2 {
			return "", false
		}
		n = parts[0] + "/" + strings.TrimSuffix(parts[1], ".git")
	case strings.Contains(n, "/") && !strings.HasPrefix(n, "@"):
		// Another host's module path, or owner/name: only an exact match.
	default:
		stems = registryStems(n)
	}
	for _, list := range [][]benchmarkRepo{semble, devSuite} {
		for _, r := range list {
			repo := strings.ToLower(r.repo)
			if n == repo {
				return r.repo, true
			}
			for _, e := range r.exact {
				if n == e {
					return r.repo, true
				}
			}
			owner, short, _ := strings.Cut(repo, "/")
			keys := append([]string{short, owner + short}, r.aliases...)
			if len(r.aliases) > 0 && r.aliases[0] == generic {
				keys = append([]string{owner + short}, r.aliases[1:]...)
			}
			for _, k := range keys {
				k = alnum(strings.ToLower(k))
				for _, s := range stems {
					if s == k {
						return r.repo, true
					}
				}
			}
		}
	}
	return "", false
}

// Benchmarks lists every held-out repository as owner/name.
func Benchmarks() []string {
	var out []string
	for _, list := range [][]benchmarkRepo{semble, devSuite} {
		for _, r := range list {
			out = append(out, r.repo)
		}
	}
	return out
}

var (
	// Registry prefixes and suffixes around a project's own name:
	// python3-flask, ruby-rack, php-monolog, node-express, lua-penlight,
	// librust-tokio-util-dev, libghc-aeson-dev, golang-github-go-chi-chi-dev,
	// libjackson2-databind-java, libnewtonsoft-json-cil-dev.
	stemPrefixes = []string{"python3-", "python-", "pypy-", "ruby-", "php-", "node-", "lua-", "librust-",
		"libghc-", "haskell-", "golang-github-", "golang-", "elixir-", "erlang-", "vim-", "neovim-", "elpa-", "lib"}
	stemSuffixes = []string{"-dev", "-java", "-cil", "-doc", "-prof", "-common", "-bin", "-tools", "-source", "-src"}
)

// registryStems returns the forms of a package name that may spell its
// project's name: the name itself, its npm scope, and the name without
// registry affixes, each reduced to letters and digits.
func registryStems(n string) []string {
	forms := []string{n}
	if scope, rest, ok := strings.Cut(strings.TrimPrefix(n, "@"), "/"); ok {
		forms = append(forms, scope, rest)
	}
	for _, f := range forms[:len(forms):len(forms)] {
		s := f
		for changed := true; changed; {
			changed = false
			for _, p := range stemPrefixes {
				if t, ok := strings.CutPrefix(s, p); ok && t != "" {
					s, changed = t, true
					forms = append(forms, s)
				}
			}
			for _, p := range stemSuffixes {
				if t, ok := strings.CutSuffix(s, p); ok && t != "" {
					s, changed = t, true
					forms = append(forms, s)
				}
			}
		}
	}
	out := make([]string, 0, len(forms))
	for _, f := range forms {
		out = append(out, alnum(f))
	}
	return out
}

// alnum keeps the letters and digits of s.
func alnum(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
