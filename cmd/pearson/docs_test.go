// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/sublinear/pearson/internal/testtier"
)

// docFiles are the documents whose examples TestDocs runs, from the
// repository's root.
var docFiles = []string{"README.md", filepath.Join("docs", "cli.md")}

// TestDocs runs every example of README.md and docs/cli.md and compares its
// output with the document's. An example is a line "$ pearson …" inside a
// ```console block; the lines after it, up to the next "$ " or the end of
// the block, are what it prints (standard output, then standard error). The
// command runs from the repository's root, so that its paths are those a
// reader types there. docs/cli.md holds the --help of pearson and of every
// command as such examples: it is generated from the help text, and this
// test fails when it is stale. With -update it rewrites the outputs in
// place:
//
//	go test ./cmd/pearson -run TestDocs -update
func TestDocs(t *testing.T) {
	// Under the race detector it was the package's slowest test (355 s at a
	// load of 35): its checks are the outputs' bytes, which the run without
	// the detector compares, and its code paths are those of the commands'
	// own tests, which the detector sees.
	testtier.SkipUnderRace(t)
	// Not parallel: it changes the working directory, which parallel tests
	// wait for.
	t.Chdir(filepath.Join("..", ".."))
	outputs := runAllExamples(t) // by command line, for those in both documents
	for _, name := range docFiles {
		t.Run(filepath.Base(name), func(t *testing.T) {
			old, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			doc, commands := renderExamples(t, name, string(old), outputs)
			if name == filepath.Join("docs", "cli.md") {
				checkEveryHelp(t, name, commands)
			}
			if *update {
				if doc != string(old) {
					if err := os.WriteFile(name, []byte(doc), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			if doc != string(old) {
				t.Errorf("%s is stale: an example's output differs (go test ./cmd/pearson -run TestDocs -update rewrites it):\n%s", name, firstDifference(string(old), doc))
			}
		})
	}
}

// renderExamples returns doc with the output of every example replaced by
// what it prints now, and the examples' command lines. outputs holds the
// outputs of the command lines run before, and gains those run now.
func renderExamples(t *testing.T, name, doc string, outputs map[string]string) (string, []string) {
	t.Helper()
	lines := strings.SplitAfter(doc, "\n")
	var out strings.Builder
	var commands []string
	inConsole, skipping := false, false
	for i, line := range lines {
		trimmed := strings.TrimRight(line, "\n")
		switch {
		case !inConsole && trimmed == "```console":
			inConsole = true
		case inConsole && trimmed == "```":
			inConsole, skipping = false, false
		case inConsole && strings.HasPrefix(trimmed, "$ "):
			skipping = false
			cmdline := strings.TrimPrefix(trimmed, "$ ")
			args, err := splitCommandLine(cmdline)
			if err != nil || len(args) == 0 || args[0] != "pearson" {
				t.Errorf("%s:%d: %q: an example must be a pearson command without pipes or redirections (%v)", name, i+1, cmdline, err)
				break
			}
			commands = append(commands, cmdline)
			out.WriteString(line)
			if _, ok := outputs[cmdline]; !ok {
				outputs[cmdline] = runExample(t, fmt.Sprintf("%s:%d", name, i+1), args)
			}
			out.WriteString(outputs[cmdline])
			skipping = true
			continue
		}
		if skipping {
			continue // the old output of the example
		}
		out.WriteString(line)
	}
	if inConsole {
		t.Errorf("%s: a ```console block is not closed", name)
	}
	return out.String(), commands
}

// runAllExamples runs the examples of every document at once, on as many
// goroutines as GOMAXPROCS (Run holds no state between calls, and no
// example writes a file), and returns their outputs by command line.
func runAllExamples(t *testing.T) map[string]string {
	t.Helper()
	type example struct{ where, line string }
	var todo []example
	seen := map[string]bool{}
	for _, name := range docFiles {
		doc, err := os.ReadFile(name)
		if err != nil {
			continue // renderExamples reports it
		}
		inConsole := false
		for i, line := range strings.Split(string(doc), "\n") {
			switch {
			case line == "```console" || line == "```":
				inConsole = line == "```console"
			case inConsole && strings.HasPrefix(line, "$ pearson") && !seen[line[2:]]:
				seen[line[2:]] = true
				todo = append(todo, example{fmt.Sprintf("%s:%d", name, i+1), line[2:]})
			}
		}
	}
	outputs := make([]string, len(todo))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if args, err := splitCommandLine(todo[i].line); err == nil {
					outputs[i] = runExample(t, todo[i].where, args)
				}
			}
		}()
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	byLine := map[string]string{}
	for i, e := range todo {
		byLine[e.line] = outputs[i]
	}
	return byLine
}

// runExample runs pearson with args and returns its standard output, then
// standard error. An example that fails to run (exit 1 or 2) is an error of
// the document.
func runExample(t *testing.T, where string, args []string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	if code == exitData || code == exitUsage {
		t.Errorf("%s: %s: exit code %d: %s", where, strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String() + stderr.String()
}

// checkEveryHelp asserts that the examples of docs/cli.md include
// pearson --help and the --help of every command.
func checkEveryHelp(t *testing.T, name string, commands []string) {
	t.Helper()
	have := map[string]bool{}
	for _, c := range commands {
		have[c] = true
	}
	want := []string{"pearson --help"}
	for _, cmd := range newApp(nil, nil, nil).Commands {
		want = append(want, "pearson "+cmd.Name+" --help")
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("%s has no example %q: add a ```console block with \"$ %s\" and run go test ./cmd/pearson -run TestDocs -update", name, w, w)
		}
	}
}

// splitCommandLine splits a command line into words as a POSIX shell would
// for the subset examples use: blanks separate words, and single or double
// quotes group them. Pipes, redirections, variables and globs are refused.
func splitCommandLine(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case strings.ContainsRune("|<>;&$`*?\\", r):
			return nil, fmt.Errorf("%q is not supported", r)
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed quote")
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// firstDifference shows the first line where want and got differ, with the
// lines around it.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		if i < len(w) && i < len(g) && w[i] == g[i] {
			continue
		}
		lo := max(0, i-3)
		return fmt.Sprintf("line %d\n--- document\n%s\n--- now\n%s", i+1,
			strings.Join(w[lo:min(len(w), i+4)], "\n"), strings.Join(g[lo:min(len(g), i+4)], "\n"))
	}
	return ""
}

func TestSplitCommandLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line string
		want []string
		err  bool
	}{
		{"pearson pe a.csv  b.csv", []string{"pearson", "pe", "a.csv", "b.csv"}, false},
		{`pearson mi --x "a b" --y 'c'`, []string{"pearson", "mi", "--x", "a b", "--y", "c"}, false},
		{"pearson pe a.csv | head", nil, true},
		{"pearson pe a.csv > out", nil, true},
		{`pearson pe "a.csv`, nil, true},
	} {
		got, err := splitCommandLine(c.line)
		if (err != nil) != c.err || strings.Join(got, "\x00") != strings.Join(c.want, "\x00") {
			t.Errorf("splitCommandLine(%q) = %q, %v; want %q, error %v", c.line, got, err, c.want, c.err)
		}
	}
}

// TestHelpNamesFlagsWithTwoDashes: every flag in every --help is written
// --name, as the documentation writes it, also one-letter ones (--k); only
// a one-letter alias keeps one dash (--help, -h).
func TestHelpNamesFlagsWithTwoDashes(t *testing.T) {
	t.Parallel()
	helps := [][]string{{"--help"}}
	for _, cmd := range newApp(nil, nil, nil).Commands {
		helps = append(helps, []string{cmd.Name, "--help"})
	}
	for _, args := range helps {
		code, out, _ := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit code %d", args, code)
		}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "-") && !strings.HasPrefix(f[0], "--") {
				t.Errorf("%v: %q names a flag with one dash", args, line)
			}
		}
	}
	if code, out, _ := run(t, "test", "--help"); code != 0 || !strings.Contains(out, "   --k value ") || !strings.Contains(out, "--help, -h") {
		t.Errorf("test --help does not show --k and --help, -h:\n%s", out)
	}
}
