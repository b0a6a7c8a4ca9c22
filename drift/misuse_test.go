// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package drift

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestNilInputsAreErrors calls the entry points that used to panic on nil
// (issue 27): each must return an error naming the package, never panic.
func TestNilInputsAreErrors(t *testing.T) {
	t.Parallel()
	var nilRef *Reference
	var nilBuf *bytes.Buffer
	for _, c := range []struct {
		name string
		call func() error
		want error
	}{
		{"Load(nil)", func() error { _, err := Load(nil); return err }, ErrFormat},
		{"Load((*bytes.Buffer)(nil))", func() error { _, err := Load(nilBuf); return err }, ErrFormat},
		{"nil Reference.Compare", func() error { _, err := nilRef.Compare(context.Background(), nil, nil); return err }, nil},
		{"nil Reference.Save", func() error { return nilRef.Save(io.Discard) }, nil},
		{"Save(nil writer)", func() error { return (&Reference{}).Save(nil) }, nil},
		{"WriteHTML(nil writer)", func() error { return WriteHTML(nil, &Result{}, "t") }, nil},
		{"WriteHTML(nil result)", func() error { return WriteHTML(io.Discard, nil, "t") }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				err = c.call()
			}()
			if err == nil || !strings.HasPrefix(err.Error(), "drift: ") || strings.HasPrefix(err.Error(), "panic") || (c.want != nil && !errors.Is(err, c.want)) {
				t.Errorf("error %v", err)
			}
		})
	}
}
