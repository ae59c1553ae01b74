package errregion

// Before is well-formed.
func Before() int {
	return 1
}

)))) ]]] @@@ this is not Go at all
	<<< >>> ;;; }}}

// After is well-formed too.
func After(s string) string {
	return s + "!"
}
