"""A forest's feature draws in a compiled loop (numba, loaded by :func:`kernels.load`): the
node streams of :class:`infotree.nodedraw._NodeDraw`, a depth's nodes in one call.

BLAKE2b (RFC 7693) with an 8-byte digest and no key, as hashlib.blake2b(msg, digest_size=8),
written out here so that the loop can hash: the same words as the Python path.
"""

from __future__ import annotations

import numpy as np

__all__ = ["blake2b8", "draw_all"]


_IV = np.array([0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
                0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179], np.uint64)
_SIGMA = np.array([
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0]], np.int64)
_ROUNDS = 12


def _rotr(x, n):
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


def _mix(a, b, c, d, x, y):
    """BLAKE2b's G, on values (kept in registers) rather than an array."""
    a = a + b + x
    d = _rotr(d ^ a, 32)
    c = c + d
    b = _rotr(b ^ c, 24)
    a = a + b + y
    d = _rotr(d ^ a, 16)
    c = c + d
    b = _rotr(b ^ c, 63)
    return a, b, c, d


def _compress(h, words, b, done, last):
    """BLAKE2b's F on block b of ``words`` (the message as little-endian uint64, zero padded),
    ``done`` bytes hashed with it."""
    v0, v1, v2, v3, v4, v5, v6, v7 = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
    v8, v9, v10, v11, v12, v13, v14, v15 = _IV[0], _IV[1], _IV[2], _IV[3], _IV[4], _IV[5], _IV[6], _IV[7]
    v12 ^= np.uint64(done)   # below 2^64: the high word of the count stays 0
    if last:
        v14 = ~v14
    m = words[16 * b:16 * b + 16]
    for r in range(_ROUNDS):
        s = _SIGMA[r % 10]
        v0, v4, v8, v12 = _mix(v0, v4, v8, v12, m[s[0]], m[s[1]])
        v1, v5, v9, v13 = _mix(v1, v5, v9, v13, m[s[2]], m[s[3]])
        v2, v6, v10, v14 = _mix(v2, v6, v10, v14, m[s[4]], m[s[5]])
        v3, v7, v11, v15 = _mix(v3, v7, v11, v15, m[s[6]], m[s[7]])
        v0, v5, v10, v15 = _mix(v0, v5, v10, v15, m[s[8]], m[s[9]])
        v1, v6, v11, v12 = _mix(v1, v6, v11, v12, m[s[10]], m[s[11]])
        v2, v7, v8, v13 = _mix(v2, v7, v8, v13, m[s[12]], m[s[13]])
        v3, v4, v9, v14 = _mix(v3, v4, v9, v14, m[s[14]], m[s[15]])
    h[0] ^= v0 ^ v8
    h[1] ^= v1 ^ v9
    h[2] ^= v2 ^ v10
    h[3] ^= v3 ^ v11
    h[4] ^= v4 ^ v12
    h[5] ^= v5 ^ v13
    h[6] ^= v6 ^ v14
    h[7] ^= v7 ^ v15


def _hash_from(h, words, first, length):
    """The digest (its 8 bytes as a little-endian uint64) of a message of ``length`` bytes
    whose blocks before ``first`` are hashed into h already (h is changed)."""
    blocks = max(1, (length + 127) // 128)
    for b in range(first, blocks):
        _compress(h, words, b, min(length, (b + 1) * 128), b == blocks - 1)
    return h[0]


def blake2b8(msg, length):
    """The digest of msg[:length] (uint8) as the little-endian uint64 of its 8 bytes."""
    blocks = max(1, (length + 127) // 128)
    buf = np.zeros(128 * blocks, np.uint8)
    buf[:length] = msg[:length]
    h = _IV.copy()
    h[0] ^= np.uint64(0x01010008)   # digest length 8, no key, fanout and depth 1
    return _hash_from(h, buf.view(np.uint64), 0, length)


def draw_all(prefixes, starts, ends, n, k):
    """Each node's k of n items (positions 0 … n−1), as ``_NodeDraw.choose`` draws them from
    its stream (node q's prefix: prefixes[starts[q]:ends[q]]; word i the first 8 bytes of
    BLAKE2b(prefix ‖ i as 8 little-endian bytes)), in increasing order: nodes × k.  The
    prefix's blocks before the counter are hashed once a node."""
    K = len(starts)
    out = np.empty((K, k), np.int64)
    a = np.empty(n, np.int64)
    longest = 0
    for q in range(K):
        longest = max(longest, ends[q] - starts[q])
    msg = np.empty(128 * ((longest + 8 + 127) // 128), np.uint8)
    words = msg.view(np.uint64)
    head = np.empty(8, np.uint64)
    h = np.empty(8, np.uint64)
    for q in range(K):
        L = ends[q] - starts[q]
        msg[:L] = prefixes[starts[q]:ends[q]]
        msg[L:] = 0
        first = L // 128   # the block the counter starts in: those before it are the same for every word
        head[:] = _IV
        head[0] ^= np.uint64(0x01010008)
        for b in range(first):
            _compress(head, words, b, (b + 1) * 128, False)
        for t in range(n):
            a[t] = t
        i = 0
        for pos in range(k):
            size = np.uint64(n - pos)
            rem = (np.uint64(0) - size) % size   # 2^64 mod size: words from 2^64 − rem are rejected
            while True:
                c = np.uint64(i)
                for t in range(8):
                    msg[L + t] = np.uint8((c >> np.uint64(8 * t)) & np.uint64(255))
                h[:] = head
                x = _hash_from(h, words, first, L + 8)
                i += 1
                if rem == 0 or x < np.uint64(0) - rem:
                    break
            j = pos + np.int64(x % size)
            a[pos], a[j] = a[j], a[pos]
        out[q] = np.sort(a[:k])
    return out


_INLINE = ("_rotr", "_mix")
_LOOPS = ("_compress", "_hash_from", "blake2b8", "draw_all")
