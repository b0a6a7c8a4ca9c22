// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRlimitAS runs `pe --k 3000 --max-memory 100G`, whose estimate needs
// about 7 GiB, in a child process whose address space is limited to 4 GiB
// (as `ulimit -v 4194304` does): the budget allows the run, the process
// cannot hold it, so it must be refused up front naming RLIMIT_AS, not end
// in the runtime's "out of memory" trace (issue 27).
func TestRlimitAS(t *testing.T) {
	if in := os.Getenv("PEARSON_TEST_RLIMIT_AS_INPUT"); in != "" {
		rl := syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &rl); err != nil {
			t.Skip(err)
		}
		var out, errb strings.Builder
		code := Run(context.Background(), []string{"pearson", "pe", "--k", "3000", "--max-memory", "100G", in, in}, strings.NewReader(""), &out, &errb)
		fmt.Printf("exit %d\n%s", code, errb.String())
		return
	}
	in := filepath.Join(t.TempDir(), "p.csv")
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range 4000 {
		fmt.Fprintf(&b, "%d,%d\n", i%97, (i*i)%89)
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRlimitAS$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PEARSON_TEST_RLIMIT_AS_INPUT="+in)
	got, _ := cmd.CombinedOutput()
	if s := string(got); !strings.Contains(s, "exit 2\n") || !strings.Contains(s, "RLIMIT_AS") || !strings.Contains(s, "lower --k") || strings.Contains(s, "goroutine ") {
		t.Errorf("under RLIMIT_AS 4 GiB:\n%s", s)
	}
}
