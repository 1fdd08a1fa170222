package movement

// Streaming stores. An ordinary store first reads the line it writes into
// the cache (a read for ownership) and keeps it there until it is evicted.
// A transpose tile writes 16 bytes into each of 64 output lines at a time:
// when the tensor is far larger than the cache, every line is read from
// memory and held while the tiles fill it, and the held lines evict the
// source the next tiles read (a 25.7 MB float32 transpose ran at a quarter
// of a copy's bandwidth, where in cache it ran at half). Non-temporal
// ("streaming") stores gather a line in a write-combining buffer and send
// it to memory whole, with no read and no room taken in the cache.
//
// The block kernels of the tiled transpose, SpaceToDepth's pairs and
// Gather's rows (an embedding lookup, amd64 with AVX: VMOVNTDQ, when the
// output is 32-byte aligned) stream (amd64: MOVNTO, part of SSE2) when the
// bytes the copy writes and reads come to StreamMin or more. Measured in turns against the same code
// without it, on the benchmark's float32 tensors on a 2-core AMD EPYC VM,
// two threads, pooled: Transpose NCHW->NHWC 1.9 -> 0.5 ms and 2.3 -> 1.0 ms
// (two states of the VM), 2-D 1.7 -> 1.0, NHWC->NCHW 1.45 -> 1.23 and
// 2.2 -> 1.7; Gather of 50,000 random rows of 512 bytes 2.0-2.1 -> 1.24-1.48
// (median, onnxshape bench --pool): its random reads compete with the
// reads for ownership of its output.
//
// Nothing else streams, by measurement:
//   - rows written whole, one line after another (Pad's, Concat's and
//     Split's, Tile's), already run at the speed of a copy with ordinary
//     stores: streamed, Concat and Split took 0.87-0.97 of the time in one
//     state of the VM and 1.0-1.26 in the other, and Pad, whose rows mix a
//     streamed interior with a border in ordinary stores, 2.3-5.3x longer
//     (built in a scratch buffer and streamed out whole, 2.1x, and as long
//     with ordinary stores from the scratch: the staging itself cost).
//   - a copy whose data fits in the cache (Expand writes 25.7 MB from 28 KB,
//     Tile from 6.4 MB): ordinary stores find their lines there on the next
//     run, streamed ones went to memory every time (1.75-1.8x slower). An
//     output that fits is also what the next operator wants to find there.
//
// Streaming stores are ordered only by a fence: each part of a streamed copy
// ends with StoreFence before the core hands the part back, so whoever reads
// the output afterwards sees every byte.

// StreamMin is the traffic, in bytes written plus bytes read, from which a
// copy streams its stores: a large last-level cache (32 MB on the
// benchmark's machine and on many servers).
const StreamMin = 32 << 20

// Streams reports whether a copy writing written bytes from a source of
// source bytes uses streaming stores. It reads at most as many bytes as it
// writes (a broadcast reads fewer).
func (e Env) Streams(written, source int) bool {
	if !HaveStreamStores {
		return false
	}
	from := StreamMin
	if e.StreamFrom > 0 {
		from = e.StreamFrom
	}
	return written+min(source, written) >= from
}
