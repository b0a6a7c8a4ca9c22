// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

// childArgsEnv, set in a child process of the test binary (childCommand),
// holds the command line (JSON) that the child runs through main, as the
// built command would run it: signal handling, the address-space fit and
// the exit code included.
const childArgsEnv = "PEARSON_TEST_CHILD_ARGS"

// TestMain runs main instead of the tests in a child started by
// childCommand.
func TestMain(m *testing.M) {
	if args := os.Getenv(childArgsEnv); args != "" {
		if err := json.Unmarshal([]byte(args), &os.Args); err != nil {
			panic(err)
		}
		main() // exits
	}
	os.Exit(m.Run())
}

// childCommand returns a command that runs pearson with args (args[0], the
// program's name, included) through main in a child process of the test
// binary.
func childCommand(ctx context.Context, args []string) *exec.Cmd {
	a, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), childArgsEnv+"="+string(a))
	return cmd
}
