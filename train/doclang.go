package train

import (
	"strings"

	"github.com/bcindex/bcindex/internal/lazyre"
)

// The doc-comment conventions of the languages mined from bcindex-code-v3 on,
// reduced to the plain sentence FirstSentence expects: Javadoc-style
// comments in C, C++, C#, Kotlin, Scala and PHP (Doxygen's \brief and @brief,
// Qt's /*! with \fn), the Linux kernel's "name - summary", GTK-Doc's "name:"
// line followed by @param lines, PostgreSQL's name line, C#'s XML doc tags,
// libtool's "# func_name args" line in shell.

var (
	// <see cref="T:Stream"/>, <paramref name="x"/>, <see langword="null"/>.
	reXMLRef = lazyre.New(`<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)="(?:[A-Z]:)?([^"]*)"\s*/>`)
	// Doxygen inline commands whose argument is a word: \p Value, @c x.
	reDoxyWord = lazyre.New(`[\\@](?:p|c|a|e|b|em|ref|link)\s+`)
	// A parameter line of GTK-Doc or kernel-doc: "@size: how many bytes".
	reParamLine = lazyre.New(`^@\w+(?:\.\.\.)?:`)
)

// cleanDoc rewrites a function's doc comment, as chunk extracted it, into
// plain text for FirstSentence; name is the function's name and lang its
// language. It returns "" for docs that only mark a function internal or
// repeat another's.
func cleanDoc(doc, name, lang string) string {
	switch lang {
	case "c", "cpp", "csharp", "shell", "php", "kotlin", "scala", "swift", "lua", "elixir":
	default:
		return doc
	}
	doc = strings.TrimLeft(doc, "!* \t\n")
	if strings.Contains(doc, `\internal`) || strings.HasPrefix(doc, `\overload`) || strings.HasPrefix(doc, `\reimp`) ||
		strings.HasPrefix(doc, "{@inheritDoc}") || strings.HasPrefix(doc, "@inheritDoc") || strings.HasPrefix(doc, "<inheritdoc") {
		return ""
	}
	base := name
	if i := strings.LastIndexAny(base, ".:>"); i >= 0 {
		base = base[i+1:]
	}
	lines := strings.Split(doc, "\n")
	var out []string
	for i, l := range lines {
		t := strings.TrimLeft(strings.TrimSpace(l), "* ")
		switch {
		case strings.HasPrefix(t, `\fn `), strings.HasPrefix(t, `\fn`) && len(t) == 3,
			strings.HasPrefix(t, `\since`), strings.HasPrefix(t, `\threadsafe`), strings.HasPrefix(t, `\reentrant`),
			strings.HasPrefix(t, `\relates`), strings.HasPrefix(t, `\inmodule`), strings.HasPrefix(t, `\class`):
			continue
		case len(out) == 0 && reParamLine().MatchString(t):
			// GTK-Doc's parameters come before the description.
			continue
		case len(out) == 0 && i == 0 && base != "" && strings.HasPrefix(t, base):
			rest := strings.TrimPrefix(strings.TrimPrefix(t, base), "()")
			switch {
			case strings.HasPrefix(rest, " - "), strings.HasPrefix(rest, " -- "):
				// Kernel-doc: "kmalloc - allocate memory".
				t = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(rest), "-"))
			case strings.TrimSpace(rest) == "" || strings.TrimSpace(rest) == ":":
				// GTK-Doc's "g_hash_table_new:", PostgreSQL's name line.
				continue
			case lang == "shell" && len(lines) > 1:
				// libtool's "# func_dirname file append": the usage line.
				continue
			}
		}
		if len(out) == 0 && t == "" {
			continue
		}
		for _, p := range []string{`\brief `, `@brief `, `\short `, `\summary `} {
			t = strings.TrimPrefix(t, p)
		}
		out = append(out, t)
	}
	doc = strings.Join(out, "\n")
	doc = reXMLRef().ReplaceAllString(doc, "$1")
	doc = reDoxyWord().ReplaceAllString(doc, "")
	doc = strings.ReplaceAll(doc, `\returns `, "Returns ")
	doc = strings.ReplaceAll(doc, `\return `, "Returns ")
	return doc
}

// stripDoc removes the doc a function chunk starts with, in its language's
// form, so the query is never found verbatim in its answer.
func stripDoc(text, lang string) string {
	switch lang {
	case "python":
		return stripDocstring(text)
	case "ruby", "shell":
		return stripLeadingComments(text, true)
	case "lua":
		return stripLuaComments(text)
	case "elixir":
		return stripElixirDoc(text)
	}
	return stripLeadingComments(text, false)
}

// stripLuaComments removes leading -- lines and --[[ ]] blocks.
func stripLuaComments(s string) string {
	for {
		t := strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(t, "--") {
			return t
		}
		if m := reLuaLong().FindString(t); m != "" {
			closer := "]" + strings.Trim(m[2:], "[") + "]"
			if i := strings.Index(t[len(m):], closer); i >= 0 {
				s = t[len(m)+i+len(closer):]
				continue
			}
			return ""
		}
		i := strings.IndexByte(t, '\n')
		if i < 0 {
			return ""
		}
		s = t[i+1:]
	}
}

var reLuaLong = lazyre.New(`^--\[=*\[`)

// stripElixirDoc removes leading # comments and @doc attributes (a heredoc,
// a string, a sigil or false) from an Elixir definition.
func stripElixirDoc(s string) string {
	for {
		t := strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(t, "#"):
			i := strings.IndexByte(t, '\n')
			if i < 0 {
				return ""
			}
			s = t[i+1:]
		case strings.HasPrefix(t, "@doc"):
			v := strings.TrimLeft(t[len("@doc"):], " \t")
			v = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(v, "~S"), "~s"), " \t")
			var end int
			switch {
			case strings.HasPrefix(v, `"""`), strings.HasPrefix(v, `'''`):
				end = strings.Index(v[3:], v[:3])
				if end < 0 {
					return ""
				}
				end += 6
			case strings.HasPrefix(v, `"`):
				end = 1
				for end < len(v) && v[end] != '"' {
					if v[end] == '\\' {
						end++
					}
					end++
				}
				end++
			default:
				end = strings.IndexByte(v, '\n')
				if end < 0 {
					return ""
				}
			}
			if end > len(v) {
				return ""
			}
			s = v[end:]
		default:
			return t
		}
	}
}
