// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package redact

import "testing"

func TestURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://user:pw@127.0.0.1:8080/x.csv?X-Amz-Signature=S", "http://127.0.0.1:8080/x.csv"},
		{"https://h/a/b.parquet?X-Amz-Credential=C&X-Amz-Signature=S#frag", "https://h/a/b.parquet"},
		{"http://user@h?q=1", "http://h"},
		{"http://a:b@c@h/p", "http://h/p"},
		{"s3://bkt/pre/", "s3://bkt/pre/"},
		{"data/x?.csv", "data/x?.csv"},
		{"-", "-"},
		{"C:\\x://y", "C:\\x://y"},
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
