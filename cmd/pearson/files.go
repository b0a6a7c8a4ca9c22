// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sublinear/pearson/dataset"
	"github.com/sublinear/pearson/objstore"
)

// outFile is a file a command writes besides standard output (--plot,
// --ratio-out). It is created before any work, as a temporary file in the
// destination's directory, so that an unwritable destination fails at once,
// and renamed over the destination once written: a failed run leaves the
// destination as it was and no temporary file behind.
type outFile struct {
	flag string   // "--plot", for messages
	dest string   // the file replaced at the end: the path given, symbolic links resolved
	temp string   // the temporary file; "" when writing to dest itself (a device, say)
	f    *os.File // open on temp (or dest)
	done bool     // committed or discarded
}

// createOut creates the temporary file of the output path of flag. Its name
// keeps the extension, which chooses the format of a picture.
func createOut(flag, path string) (*outFile, error) {
	o := &outFile{flag: flag, dest: path}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		o.dest = real
	}
	fi, err := os.Stat(o.dest)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s %s: is a directory", flag, path)
	case err == nil && fi.Mode()&fs.ModeSocket != 0:
		return nil, fmt.Errorf("%s %s: is a socket: give a file, a pipe or a device", flag, path)
	case err == nil && fi.Mode()&fs.ModeNamedPipe != 0:
		// A pipe: written in place, and only when a reader has it open,
		// lest the run hang at the end (opening without a reader fails).
		if o.f, err = os.OpenFile(o.dest, os.O_WRONLY|syscall.O_NONBLOCK, 0); err != nil {
			if errors.Is(err, syscall.ENXIO) {
				return nil, fmt.Errorf("%s %s: the pipe has no reader: start the reader first", flag, path)
			}
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		return o, nil
	case err == nil && !fi.Mode().IsRegular():
		// A device: written in place, never replaced.
		if o.f, err = os.OpenFile(o.dest, os.O_WRONLY, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		return o, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	perm := os.FileMode(0o666) // less the umask, as os.Create
	if err == nil {
		perm = fi.Mode().Perm()
	}
	dir, base := filepath.Split(o.dest)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	for range 100 {
		o.temp = filepath.Join(dir, fmt.Sprintf(".%s-%d%s", stem, rand.Uint32(), ext))
		o.f, err = os.OpenFile(o.temp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			// Name the directory the user gave, not the temporary file.
			d := filepath.Dir(path)
			return nil, fmt.Errorf("%s %s: cannot create a file in %s: %w", flag, path, d, pe.Err)
		}
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if fi != nil {
		o.f.Chmod(perm) // the umask may have removed bits of the file replaced
	}
	return o, nil
}

// name returns the path to write to.
func (o *outFile) name() string {
	if o.temp == "" {
		return o.dest
	}
	return o.temp
}

// commit closes the file and renames it over the destination. A nil
// outFile (an output not asked for) has nothing to commit.
func (o *outFile) commit() error {
	if o == nil || o.done {
		return nil
	}
	o.done = true
	err := o.f.Close()
	if err == nil && o.temp != "" {
		err = os.Rename(o.temp, o.dest)
	}
	if err != nil {
		if o.temp != "" {
			os.Remove(o.temp)
		}
		return fmt.Errorf("%s: %w", o.flag, err)
	}
	return nil
}

// commitOutputs commits the files createOutputs made, in order, once the
// run succeeded; the first that fails stops it.
func commitOutputs(files []*outFile) error {
	for _, f := range files {
		if err := f.commit(); err != nil {
			return err
		}
	}
	return nil
}

// discard closes and removes the temporary file, unless committed; a nil
// outFile has nothing to discard.
func (o *outFile) discard() {
	if o == nil || o.done {
		return
	}
	o.done = true
	o.f.Close()
	if o.temp != "" {
		os.Remove(o.temp)
	}
}

// samePath reports whether two paths name the same file: the same existing
// file (through links too), or the same absolute path.
func samePath(a, b string) bool {
	fa, ea := os.Stat(a)
	fb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(fa, fb)
	}
	aa, ea := filepath.Abs(a)
	ab, eb := filepath.Abs(b)
	return ea == nil && eb == nil && aa == ab
}

// output is an output flag and its value.
type output struct{ flag, path string }

// checkOutputs returns a usage error when an output is standard output
// ("-", which carries the result), one of the input files (it would be
// overwritten, through a link too) or the file of another output. Outputs
// with an empty path are not asked for.
func checkOutputs(inputs []string, outs ...output) error {
	var given []output
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if o.path == "-" {
			return usageErr("%s -: standard output carries the result; give a file name", o.flag)
		}
		for _, in := range inputs {
			if in != "-" && samePath(o.path, in) {
				return usageErr("%s %s is the input file %s: it would be overwritten", o.flag, o.path, in)
			}
		}
		for _, g := range given {
			if samePath(o.path, g.path) {
				return usageErr("%s %s and %s %s are the same file", g.flag, g.path, o.flag, o.path)
			}
		}
		given = append(given, o)
	}
	return nil
}

// createOutputs checks the outputs asked for (checkOutputs, checkStreams)
// and creates the temporary file of each one with a path, in the order of
// outs (nil where none was asked for). Deferring release removes those not
// committed, so that a failed or interrupted run leaves the old files as
// they were; it is set, and safe to call, even when an error is returned.
func createOutputs(o *options, inputs []string, outs []output) ([]*outFile, func(), error) {
	files := make([]*outFile, len(outs))
	release := func() {
		for _, f := range files {
			f.discard()
		}
	}
	if err := checkOutputs(inputs, outs...); err != nil {
		return nil, release, err
	}
	if err := checkStreams(o, inputs, outs); err != nil {
		return nil, release, err
	}
	for i, o := range outs {
		if o.path != "" {
			f, err := createOut(o.flag, o.path)
			if err != nil {
				return nil, release, err
			}
			files[i] = f
		}
	}
	return files, release, nil
}

// checkStreams returns a usage error when an output is the file standard
// output goes to (--ratio-out /dev/stdout, or --ratio-out res.txt >
// res.txt), or the file standard input reads when an input is "-": the
// same device and inode, whatever the names, so that the result or the
// input would be overwritten.
func checkStreams(opt *options, inputs []string, outs []output) error {
	stdout := fileInfo(opt.stdout)
	var stdin fs.FileInfo
	if slices.Contains(inputs, "-") {
		stdin = fileInfo(opt.stdin)
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		fi, err := os.Stat(o.path)
		if err != nil {
			continue
		}
		if stdout != nil && os.SameFile(fi, stdout) {
			return usageErr("%s %s is the file standard output goes to, which carries the result: give another file", o.flag, o.path)
		}
		if stdin != nil && os.SameFile(fi, stdin) {
			return usageErr("%s %s is the file standard input reads, an input: it would be overwritten", o.flag, o.path)
		}
	}
	return nil
}

// fileInfo returns the file information of a stream that is a file (or
// reads one through a ctxReader), or nil.
func fileInfo(s any) fs.FileInfo {
	if cr, ok := s.(*ctxReader); ok {
		s = cr.r
	}
	f, ok := s.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	return fi
}

// remote says how openTable reads a URL: the store's settings (its
// endpoint), and the callback of --progress that shows the requests in
// flight and the bytes fetched (nil: no bar).
type remote struct {
	settings objstore.Settings
	progress func(inFlight, requests, bytes int64)
	// whole says that every byte is read, in order (a scan: changepoint's
	// series), not a sample: the objects are read ahead in chunks of
	// scanChunk, and refused up front when their total size exceeds
	// maxBytes (when positive), before a byte of data is fetched.
	whole    bool
	maxBytes float64
}

// The read of a whole object: chunks of scanChunk bytes fetched by a
// request each, scanAhead of them ahead of the reader, in a cache of
// scanCache bytes (the chunks already read are dropped first).
const (
	scanChunk = objstore.MaxRequest
	scanAhead = 2
	scanCache = 8 * scanChunk
)

// remoteTick is how often the requests of a remote read are shown.
const remoteTick = 100 * time.Millisecond

// openTable opens the table at path with the reader its format needs
// (dataset.Open), or, for an s3:// or http(s):// URL, the objects it names
// (objstore.Store.List, dataset.OpenObjects), read by ranged requests made
// under ctx by a store with rem's settings. Closing the source of a URL
// says on stderr what was read: the requests made and the bytes fetched.
func openTable(ctx context.Context, path string, opts dataset.Options, rem remote, stderr io.Writer) (dataset.Source, error) {
	if !objstore.IsURL(path) {
		return dataset.Open(path, opts)
	}
	ctx, cancel := context.WithCancel(ctx) // Close stops the fetches still in flight
	if rem.whole {
		rem.settings.CacheBytes = scanCache
	}
	st := objstore.New(ctx, rem.settings)
	var ticker chan struct{} // closed when the bar's goroutine has ended
	stop := func() {
		cancel()
		if ticker != nil {
			<-ticker // nothing is drawn once the source is closed
		}
	}
	if rem.progress != nil {
		show := func() {
			s := st.Stats()
			rem.progress(s.InFlight, s.Requests, s.Bytes)
		}
		show()
		ticker = make(chan struct{})
		go func() {
			defer close(ticker)
			tick := time.NewTicker(remoteTick)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
					show()
				}
			}
		}()
	}
	objs, err := st.List(path)
	if err != nil {
		stop()
		return nil, err
	}
	in := make([]dataset.Object, len(objs))
	total := int64(0)
	for i, o := range objs {
		in[i] = dataset.Object{Path: o.URL(), Key: o.Key(), Size: o.Size(), R: o}
		if rem.whole {
			in[i].R = &readAhead{o: o}
		}
		total += o.Size()
	}
	if rem.whole && rem.maxBytes > 0 && float64(total) > rem.maxBytes {
		stop()
		in := ""
		if len(objs) > 1 {
			in = fmt.Sprintf(" in %d objects", len(objs))
		}
		return nil, fmt.Errorf("%s: %s%s to read whole (every row is read, not a sample), more than the %s the memory budget leaves for the data: raise --max-memory, or read a smaller object", displayPath(path), formatSize(float64(total)), in, formatSize(rem.maxBytes))
	}
	src, err := dataset.OpenObjects(path, in, opts)
	if err != nil {
		stop()
		return nil, err
	}
	return &remoteSource{Source: src, st: st, stderr: stderr, objects: len(objs), stop: stop}, nil
}

// readAhead reads an object from its start to its end, as a scan does:
// each read first prefetches the chunks up to scanAhead chunks past it, so
// that the object comes in requests of scanChunk bytes, the next ones in
// flight while the rows before are parsed, not a round trip per read of
// the parser.
type readAhead struct {
	o    *objstore.Object
	mu   sync.Mutex
	next int64 // start of the first chunk not prefetched
}

func (r *readAhead) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	end := min(off+int64(len(p))+scanAhead*scanChunk, r.o.Size())
	var chunks [][2]int64
	for ; r.next < end; r.next += scanChunk {
		chunks = append(chunks, [2]int64{r.next, r.next + scanChunk})
	}
	r.mu.Unlock()
	if chunks != nil {
		r.o.Prefetch(chunks, false)
	}
	return r.o.ReadAt(p, off)
}

// remoteSource is the source of a URL, which says what it read when
// closed.
type remoteSource struct {
	dataset.Source
	st      *objstore.Store
	stderr  io.Writer
	objects int
	stop    func() // cancels the fetches in flight and ends the bar of --progress
}

// Close closes the source and says on stderr what was read.
func (r *remoteSource) Close() error {
	err := r.Source.Close()
	r.stop()
	s := r.st.Stats()
	fmt.Fprintf(r.stderr, "pearson: %s: %d requests, %d bytes fetched from %d objects\n", r.Name(), s.Requests, s.Bytes, r.objects)
	return err
}
