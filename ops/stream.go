package ops

// Streaming stores. An ordinary store first reads the line it writes into
// the cache (a read for ownership), so a copy moves its output's bytes
// twice: once in, once out. When the copy's data cannot stay in the caches,
// that read is wasted, and it also evicts the source the copy is about to
// read. Non-temporal ("streaming") stores send whole lines straight to
// memory and remove it. Go's own copy switches to them from 1 MB on, glibc's
// memcpy from about three quarters of the last-level cache.
//
// The copy engine streams where the platform has the stores (amd64: MOVNTO,
// part of SSE2) when the bytes a copy writes and reads come to more than
// streamMin: the block kernels of the tiled transpose, SpaceToDepth's pairs,
// and whole rows (Tile's and Expand's, and the blocks of Slice, Concat and
// Split that go through a copy plan). Measured in turns against the same code without it, on the benchmark's float32 tensors on a
// 2-core AMD EPYC VM, two threads: Transpose NCHW->NHWC 1.9 -> 0.5 ms
// and 2.3 -> 1.0 ms (two states of the VM), 2-D 1.7 -> 1.0, NHWC->NCHW
// 1.45 -> 1.23 and 2.2 -> 1.7. Three things make it slower, and the engine
// avoids them:
//   - a copy whose data fits in the cache (Expand writes 25.7 MB from 28 KB,
//     Tile from 6.4 MB): ordinary stores find their lines there on the next
//     run, streaming ones go to memory every time (1.75-1.8x slower). An
//     output that fits is also what the next operator wants to find in the
//     cache.
//   - lines written partly with streaming stores and partly with ordinary
//     ones: the write-combining buffer is flushed half full. Pad's rows
//     (a border of 8 bytes, then the interior) ran 2.3-5.3x slower, so
//     tableCopy never streams.
//   - Concat and Split (stitch), whose 800 KB rows already run at the copy
//     bandwidth through REP MOVSB: streamed, they took 0.87-0.97 of the
//     time in one state of the VM and 1.0-1.26 in the other, so they keep
//     ordinary stores.
//
// Streaming stores are ordered only by a fence: each part of a streamed copy
// ends with storeFence before the core hands the part back, so whoever reads
// the output afterwards sees every byte.

// streamMin is the traffic, in bytes written plus bytes read, from which a
// copy streams its stores: a large last-level cache (32 MB on the
// benchmark's machine and on many servers).
const streamMin = 32 << 20

// streams reports whether a copy writing written bytes from a source of
// source bytes uses streaming stores. It reads at most as many bytes as it
// writes (a broadcast reads fewer).
func (o *Options) streams(written, source int) bool {
	if !haveStreamStores {
		return false
	}
	from := streamMin
	if o := o.orDefault(); o.streamFrom > 0 {
		from = o.streamFrom
	}
	return written+min(source, written) >= from
}

// minStreamRow is the shortest row, in bytes, that copyStream streams:
// below it, the stores of its unaligned ends dominate.
const minStreamRow = 64
