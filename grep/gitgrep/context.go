package gitgrep

// preContext is show_pre_context: the lines before a hit, back to the
// function's start (and its comment) with -W, and the function line with
// -p.
func (s *fileState) preContext(bol, eol, lno int) {
	r, c := s.r, s.content
	cur, from, funcnameLno := lno, 1, 0
	funcnameNeeded, commentNeeded := r.funcname, false
	if r.before < lno {
		from = lno - r.before
	}
	if from <= s.lastShown {
		from = s.lastShown + 1
	}
	orig := from
	if r.funcbody {
		if matchFuncname(c[bol:eol]) {
			commentNeeded = true
		} else {
			funcnameNeeded = true
		}
		from = s.lastShown + 1
	}
	for bol > 0 && cur > from {
		next := bol
		eol := bol - 1
		bol = lineStart(c, eol)
		cur--
		if commentNeeded && (isEmptyLine(c[bol:eol]) || matchFuncname(c[bol:eol])) {
			commentNeeded = false
			from = orig
			if cur < from {
				cur++
				bol = next
				break
			}
		}
		if funcnameNeeded && matchFuncname(c[bol:eol]) {
			funcnameLno = cur
			funcnameNeeded = false
			if r.funcbody {
				commentNeeded = true
			} else {
				from = orig
			}
		}
	}
	if r.funcname && funcnameNeeded {
		s.funcnameLine(bol, cur)
	}
	for cur < lno {
		eol := lineEnd(c, bol)
		sign := byte('-')
		if cur == funcnameLno {
			sign = '='
		}
		s.showLine(bol, eol, cur, 0, sign)
		bol = eol + 1
		cur++
	}
}

// preContextDefs is preContext with the chunker's definitions: with -W
// the hit's whole definition (doc comment included) from its start, with
// -p its declaration line, marked '=' as git marks a function line.
func (s *fileState) preContextDefs(bol, lno int) {
	r := s.r
	from := max(1, lno-r.before)
	funcLno := 0
	if d := enclosing(s.defs, lno); d != nil {
		if r.funcbody {
			from = min(from, d.start)
		}
		if d.sig < lno {
			funcLno = d.sig
		}
	}
	from = max(from, s.lastShown+1)
	if r.funcname && funcLno > s.lastShown && funcLno < from {
		b := lineBack(s.content, bol, lno, funcLno)
		s.showLine(b, lineEnd(s.content, b), funcLno, 0, '=')
	}
	b := lineBack(s.content, bol, lno, from)
	for cur := from; cur < lno; cur++ {
		e := lineEnd(s.content, b)
		sign := byte('-')
		if cur == funcLno {
			sign = '='
		}
		s.showLine(b, e, cur, 0, sign)
		b = e + 1
	}
}

// lineBack returns where line target starts, given that line lno starts
// at bol (target <= lno).
func lineBack(c []byte, bol, lno, target int) int {
	for ; lno > target && bol > 0; lno-- {
		bol = lineStart(c, bol-1)
	}
	return bol
}

// funcnameLine is show_funcname_line: the nearest function line above
// the line at bol, unless already shown.
func (s *fileState) funcnameLine(bol, lno int) {
	c := s.content
	for bol > 0 {
		eol := bol - 1
		bol = lineStart(c, eol)
		lno--
		if lno <= s.lastShown {
			break
		}
		if matchFuncname(c[bol:eol]) {
			s.showLine(bol, eol, lno, 0, '=')
			break
		}
	}
}
