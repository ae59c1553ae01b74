package main

import (
	"flag"
	"fmt"

	"github.com/urfave/cli/v2"
)

// singleValued makes every flag of the app and of each command that takes
// one value refuse a second one. The standard flag parser, under
// urfave/cli, keeps the last value given: `--ref feat --ref main` would
// search main alone, silently. urfave/cli counts repeats of boolean flags
// only (Context.Count), so each single-valued flag's value is wrapped, as
// the parser creates it, in one that fails on its second Set. Repeatable
// flags (string slices) are left as they are.
func singleValued(app *cli.App) *cli.App {
	wrapFlags(app.Flags)
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			wrapFlags(c.Flags)
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	return app
}

func wrapFlags(fs []cli.Flag) {
	for i, f := range fs {
		switch f.(type) {
		case *cli.BoolFlag, *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag,
			*cli.Float64Flag, *cli.DurationFlag, *cli.StringFlag, *cli.PathFlag:
			names := f.Names()
			fs[i] = onceFlag{fullFlag: f.(fullFlag), names: &names}
		}
	}
}

// fullFlag is what urfave/cli asks of a flag besides cli.Flag (help, man
// page, required flags, flag actions); the built-in flag types have it all.
type fullFlag interface {
	cli.DocGenerationFlag
	cli.VisibleFlag
	cli.CategorizableFlag
	cli.RequiredFlag
	cli.ActionableFlag
}

// onceFlag is a flag whose value may be given once. It keeps its names:
// urfave/cli asks every flag for them for each flag it looks up (each a
// regular-expression replacement per name), which made that lookup
// quadratic in the number of flags and a good part of a short command's
// run (grep has over a hundred).
type onceFlag struct {
	fullFlag
	names *[]string
}

// Names returns the flag's name and aliases, as the wrapped flag does.
func (f onceFlag) Names() []string { return *f.names }

// Apply registers the flag, then wraps the value the parser will set under
// each of its names. Aliases have values of their own, and urfave/cli
// already refuses two forms of one flag (-k 5 -n 6).
func (f onceFlag) Apply(set *flag.FlagSet) error {
	if err := f.fullFlag.Apply(set); err != nil {
		return err
	}
	for _, n := range f.Names() {
		if fl := set.Lookup(n); fl != nil {
			fl.Value = &onceValue{Value: fl.Value, name: dashed(n)}
		}
	}
	return nil
}

// dashed spells a flag name as it is typed: -k, --ref.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// onceValue fails when it is set a second time.
type onceValue struct {
	flag.Value
	name string
	set  bool
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return fmt.Errorf("%s was given more than once; it takes one value", v.name)
	}
	v.set = true
	return v.Value.Set(s)
}

// Get, IsBoolFlag and Count pass on what the wrapped value offers: urfave/cli
// and the flag package look for them.
func (v *onceValue) Get() any {
	if g, ok := v.Value.(flag.Getter); ok {
		return g.Get()
	}
	return v.Value.String()
}

func (v *onceValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (v *onceValue) Count() int {
	if c, ok := v.Value.(cli.Countable); ok {
		return c.Count()
	}
	return 0
}
