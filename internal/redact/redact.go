// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package redact gives the name of a remote input that may be shown: its
// URL without the secrets a URL may carry, a user and password
// (http://user:pw@host/…) and a query string (a presigned URL's
// X-Amz-Credential and X-Amz-Signature).
package redact

import "strings"

// URL returns s without the userinfo, the query string and the fragment
// of a URL (scheme://userinfo@host/path?query#fragment), or s itself when
// it is not a URL (a local path, "-").
func URL(s string) string {
	i := strings.Index(s, "://")
	if i <= 0 || !scheme(s[:i]) {
		return s
	}
	rest := s[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	host, path := rest[:end], rest[end:]
	if at := strings.LastIndex(host, "@"); at >= 0 {
		host = host[at+1:]
	}
	if q := strings.IndexAny(path, "?#"); q >= 0 {
		path = path[:q]
	}
	return s[:i+3] + host + path
}

// scheme reports whether s is a URL scheme: a letter, then letters,
// digits, "+", "-" or ".".
func scheme(s string) bool {
	for i, c := range s {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}
