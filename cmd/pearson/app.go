// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
)

// version is the program's version; release builds set it with
// -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// Exit codes.
const (
	exitOK    = 0 // success; a test's verdict is in its output
	exitData  = 1 // a data or runtime error
	exitUsage = 2 // a usage error: unknown flag, missing argument, bad flag value
	// exitInterrupt is the code of a run stopped by SIGINT or SIGTERM (or
	// its context cancelled): 128 + SIGINT's 2, as shells report a
	// command an interrupt ended.
	exitInterrupt = 130
)

// defaultSeed is the seed of every command's randomness unless --seed is
// given, so that two runs print the same bytes.
const defaultSeed = 1

// Run runs pearson with the command line args (args[0] is the program's
// name), reading the file name "-" from stdin, writing data to stdout and
// diagnostics to stderr, and returns the exit code: 0 on success, 1 for a
// data or runtime error, 2 for a usage error, 130 when ctx was cancelled
// (an interrupt): the run then stops within a fraction of a second, even
// in a read of stdin that blocks, and leaves every output file as it was.
// Run holds no state between calls: calls may run concurrently.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(newCtxReader(ctx, stdin), stdout, stderr)
	return exitCode(app.RunContext(ctx, flagsFirst(app, args)), stderr)
}

// flagsFirst moves a command's options ahead of its file arguments, so that
// "pearson test P.csv Q.csv --permutations 200" works: the flag library
// stops at the first argument that is not an option. An option is a word
// starting with "-" (not "-" alone, standard input); it takes the next word
// as its value unless it is boolean or written --name=value. After "--"
// every word is an argument.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	var cmd *cli.Command
	for _, c := range app.Commands {
		if slices.Contains(c.Names(), args[1]) {
			cmd = c
		}
	}
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, rest []string
	words := args[2:]
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			rest = append(rest, words[i+1:]...)
			i = len(words)
		case len(w) > 1 && w[0] == '-':
			name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
			if name == "help" || name == "h" {
				// The command's help, whatever else is on the line.
				return []string{args[0], args[1], "--help"}
			}
			flags = append(flags, w)
			if takesValue[name] && !strings.Contains(w, "=") {
				if i+1 == len(words) {
					// No value: let the flag library say so, rather than
					// take the "--" before the files as the value.
					return append([]string{args[0], args[1]}, flags...)
				}
				i++
				flags = append(flags, words[i])
			}
		default:
			rest = append(rest, w)
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	if len(rest) > 0 {
		out = append(append(out, "--"), rest...)
	}
	return out
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:    "pearson",
		Usage:   "relative Pearson divergence and squared-loss mutual information in constant time",
		Version: version,
		Description: "pearson estimates the α-relative Pearson divergence between two samples and the\n" +
			"squared-loss mutual information between variables by Algorithm 1 of Hayashi & Yoshida,\n" +
			"\"Minimizing Quadratic Functions in Constant Time\" (NIPS 2016): the cost does not grow\n" +
			"with the number of rows. Data go to standard output, diagnostics to standard error.\n" +
			"Exit codes: 0 success, 1 a data or runtime error, 2 a usage error, 3 drift found (drift --fail-on-drift), 130 interrupted.",
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// The flag library's own --help and --version flags and help
		// command are package variables that it writes to while parsing;
		// each app has flags of its own instead, so that runs may go
		// concurrently. The library still acts on flags of these names.
		HideHelp:        true,
		HideHelpCommand: true,
		HideVersion:     true,
		Flags:           []cli.Flag{helpFlag(), &cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version", DisableDefaultText: true}},
		// The help shows the version, which HideVersion would leave out.
		CustomAppHelpTemplate: strings.ReplaceAll(cli.AppHelpTemplate, "{{if not .HideVersion}}", "{{if true}}"),
		Commands:              commands(),
		// Exit codes are decided by Run, never by os.Exit inside the library.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsageError,
		Action:         func(c *cli.Context) error { return withUsage(c, appAction(c)) },
	}
	return app
}

// appAction is the action of pearson without a command: --version, help,
// or a usage error.
func appAction(c *cli.Context) error {
	args := c.Args()
	switch {
	case c.Bool("version"):
		return printVersion(c)
	case !args.Present():
		return &usageError{msg: "missing command", usage: appUsage(c.App)}
	case args.First() == "help" && args.Len() == 1:
		return cli.ShowAppHelp(c)
	case args.First() == "help" && args.Len() == 2 && c.App.Command(args.Get(1)) != nil:
		return cli.ShowCommandHelp(c, args.Get(1))
	case args.First() == "help" && args.Len() == 2:
		return usageErr("unknown command %q", args.Get(1))
	case args.First() == "help":
		return usageErr("help takes at most one command")
	}
	return usageErr("unknown command %q", args.First())
}

// commandTable is every subcommand, in the order the help lists them: each
// entry builds its definition (name, help, flags) and its action, a new one
// per app, since the flag library records state in them while parsing.
// Every subcommand runs through commands' wrapping of its action.
var commandTable = [...]func() *cli.Command{
	divergenceCommand,
	testCommand,
	miCommand,
	rankCommand,
	changepointCommand,
	qminCommand,
	driftCommand,
	completionCommand, manCommand, // completion.go, man.go
}

// commands returns the subcommands of commandTable with what they share:
// their own --help and usage errors that name the flag and carry the
// command's usage line. (The estimating commands' actions, built by
// action, also map the libraries' errors, once.)
func commands() []*cli.Command {
	cmds := make([]*cli.Command, len(commandTable))
	for i, build := range commandTable {
		cmd := build()
		run := cmd.Action
		cmd.Action = func(c *cli.Context) error { return withUsage(c, run(c)) }
		cmd.OnUsageError = onUsageError
		cmd.HideHelp = true
		cmd.Flags = append(cmd.Flags, helpFlag())
		cmds[i] = cmd
	}
	return cmds
}

// helpFlag is an app's or a command's --help (see newApp).
func helpFlag() *cli.BoolFlag {
	return &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help", DisableDefaultText: true}
}

// usageError is a mistake in the command line. Run prints it with the
// command's usage line and exits with code 2.
type usageError struct {
	msg   string
	usage string // the usage line of the command, and how to get help
}

func (e *usageError) Error() string { return e.msg }

// usageErr returns a usage error; the action that returns it (see
// commands, newApp) adds the usage line of its command.
func usageErr(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// withUsage gives a usage error without a usage line that of the command
// running in c.
func withUsage(c *cli.Context, err error) error {
	var ue *usageError
	if errors.As(err, &ue) && ue.usage == "" {
		ue.usage = usageLine(c)
	}
	return err
}

func usageLine(c *cli.Context) string {
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		return fmt.Sprintf("usage: %s\nRun 'pearson %s --help' for more.", c.Command.UsageText, c.Command.Name)
	}
	return "usage: pearson [--help] [--version] <command> [options]\nRun 'pearson --help' for the commands."
}

// appUsage is the usage line of pearson with its list of commands.
func appUsage(app *cli.App) string {
	var b strings.Builder
	b.WriteString("usage: pearson [--help] [--version] <command> [options]\n\ncommands:\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, cmd := range app.Commands {
		if !cmd.Hidden {
			fmt.Fprintf(tw, "   %s\t%s\n", strings.Join(cmd.Names(), ", "), cmd.Usage)
		}
	}
	tw.Flush()
	b.WriteString("\nRun 'pearson --help' for more, 'pearson <command> --help' for a command's options.")
	return b.String()
}

// doubleDash writes the flag names in the messages of Go's flag package,
// which the flag library passes on, with the double dash the help uses:
// the package writes "-" and the name after fixed phrases ("flag provided
// but not defined: -bogus", `invalid value "x" for flag -sigma: ...`,
// `invalid boolean value "x" for -exact: ...`, "flag needs an argument: -k").
var doubleDash = strings.NewReplacer(
	"not defined: -", "not defined: --",
	"for flag -", "for flag --",
	"for -", "for --",
	"argument: -", "argument: --",
)

func onUsageError(c *cli.Context, err error, _ bool) error {
	return &usageError{msg: doubleDash.Replace(err.Error()), usage: usageLine(c)}
}

// exitCode prints err, if any, on stderr and returns the exit code it
// deserves.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "pearson: %s\n%s\n", ue.msg, ue.usage)
		return exitUsage
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "pearson: interrupted")
		return exitInterrupt
	}
	var coded interface{ ExitCode() int } // a verdict a pipeline acts on (drift's --fail-on-drift)
	if errors.As(err, &coded) {
		fmt.Fprintf(stderr, "pearson: %v\n", err)
		return coded.ExitCode()
	}
	fmt.Fprintf(stderr, "pearson: %v\n", err)
	return exitData
}

// seedSource returns the source of randomness of a run with the given seed.
func seedSource(seed uint64) rand.Source { return rand.NewPCG(seed, 0x70656172736f6e) }

// checkFormat returns the writer --format names among the command's
// formats, or a usage error.
func checkFormat(o *options, names []string) (writer, error) {
	f := o.format
	if slices.Contains(names, f) {
		return writers[f], nil
	}
	return nil, usageErr("unknown --format %q: use %s", f, strings.Join(names, ", "))
}

// delimiter returns the field delimiter given by --delimiter: one character,
// or the words "tab" or "\t".
func delimiter(o *options) (rune, error) {
	d := o.delimiter
	switch d {
	case "tab", `\t`:
		return '\t', nil
	}
	r := []rune(d)
	if len(r) != 1 || r[0] == '"' || r[0] == '\n' || r[0] == '\r' {
		return 0, usageErr("--delimiter %q must be a single character other than a quote or line end (or \"tab\")", d)
	}
	return r[0], nil
}

// Flags shared by several commands. Each app gets its own: the flag
// library records state in them while parsing.

func formatFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "format", Value: formatNames[0], Usage: "output format: " + strings.Join(formatNames, ", ")}
}

func seedFlag() *cli.Uint64Flag {
	return &cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "seed of the random draws: the same seed prints the same output"}
}

func delimFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "delimiter", Value: ",", Usage: "field delimiter of the input files (one character, or \"tab\")"}
}
