/* The C twin of streams.py's loops (blake2b8, draw_all), loaded by ctypes where numba is not:
   the same words and the same draws as streams.py and ensemble._NodeDraw.choose, bit for bit.
   BLAKE2b (RFC 7693), 8-byte digest, no key. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t IV[8] = {
    0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL, 0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL,
    0x510E527FADE682D1ULL, 0x9B05688C2B3E6C1FULL, 0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL};

static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},   /* rounds 10, 11 repeat 0, 1: */
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};  /* no r % 10 in the loop */

/* h[0] of a fresh state: digest length 8, no key, fanout and depth 1 */
#define PARAM 0x01010008ULL

#define ROTR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define G(a, b, c, d, x, y) do { \
    a = a + b + (x); d = ROTR(d ^ a, 32); c = c + d; b = ROTR(b ^ c, 24); \
    a = a + b + (y); d = ROTR(d ^ a, 16); c = c + d; b = ROTR(b ^ c, 63); } while (0)

/* BLAKE2b's F on one 128-byte block; `done` bytes hashed with it (below 2^64: the count's
   high word stays 0). Words are assembled from bytes so that any host's byte order works. */
static void compress(uint64_t h[8], const uint8_t *block, uint64_t done, int last)
{
    uint64_t m[16], v[16];
    int i, r;
    for (i = 0; i < 16; i++) {
        const uint8_t *p = block + 8 * i;
        m[i] = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24
             | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
    }
    for (i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= done;
    if (last)
        v[14] = ~v[14];
    for (r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (i = 0; i < 8; i++)
        h[i] ^= v[i] ^ v[i + 8];
}

/* h holds the full blocks before msg hashed (`before` bytes); msg's `rest` bytes (1..256,
   zero padded to whole blocks, or 0 with one block of zeros) end the message. */
static uint64_t finish(uint64_t h[8], const uint8_t *msg, uint64_t before, int64_t rest)
{
    int64_t b, blocks = rest > 0 ? (rest + 127) / 128 : 1;
    for (b = 0; b < blocks; b++) {
        int64_t upto = (b + 1) * 128 < rest ? (b + 1) * 128 : rest;
        compress(h, msg + 128 * b, before + (uint64_t)upto, b == blocks - 1);
    }
    return h[0];   /* the digest's 8 bytes, little-endian, are h[0]'s low bytes */
}

uint64_t blake2b8(const uint8_t *msg, int64_t length)
{
    uint64_t h[8];
    uint8_t tail[128];
    int64_t b, full = length > 0 ? (length - 1) / 128 : 0;   /* the last block, even if full, is final */
    memcpy(h, IV, sizeof h);
    h[0] ^= PARAM;
    for (b = 0; b < full; b++)
        compress(h, msg + 128 * b, (uint64_t)(b + 1) * 128, 0);
    memset(tail, 0, sizeof tail);
    memcpy(tail, msg + 128 * full, (size_t)(length - 128 * full));
    return finish(h, tail, (uint64_t)full * 128, length - 128 * full);
}

int draw_all(const uint8_t *prefixes, const int64_t *starts, const int64_t *ends, int64_t K,
             int64_t n, int64_t k, int64_t *out)
{
    int64_t *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
    uint8_t tail[256];   /* the prefix past its full blocks (< 128 bytes) and the counter: 2 blocks at most */
    uint64_t head[8], h[8], x = 0;
    int64_t q, t, pos, i, j;
    if (!a)
        return -1;
    for (q = 0; q < K; q++) {
        const uint8_t *prefix = prefixes + starts[q];
        int64_t L = ends[q] - starts[q], first = L / 128, rest = L - 128 * first;
        int64_t *row = out + q * k;
        /* the blocks before the counter are the same for every word: hashed once a node */
        memcpy(head, IV, sizeof head);
        head[0] ^= PARAM;
        for (t = 0; t < first; t++)
            compress(head, prefix + 128 * t, (uint64_t)(t + 1) * 128, 0);
        memset(tail, 0, sizeof tail);
        memcpy(tail, prefix + 128 * first, (size_t)rest);
        for (t = 0; t < n; t++)
            a[t] = t;
        i = 0;
        for (pos = 0; pos < k; pos++) {
            uint64_t size = (uint64_t)(n - pos), rem = (0 - size) % size;   /* 2^64 mod size */
            do {   /* words from 2^64 - rem up would favour the low residues: take the next */
                for (t = 0; t < 8; t++)
                    tail[rest + t] = (uint8_t)((uint64_t)i >> (8 * t));
                memcpy(h, head, sizeof h);
                x = finish(h, tail, (uint64_t)first * 128, rest + 8);
                i++;
            } while (rem != 0 && x >= 0 - rem);
            j = pos + (int64_t)(x % size);
            t = a[pos], a[pos] = a[j], a[j] = t;
        }
        for (pos = 0; pos < k; pos++) {   /* insertion sort: k is small */
            int64_t v = a[pos];
            for (j = pos; j > 0 && row[j - 1] > v; j--)
                row[j] = row[j - 1];
            row[j] = v;
        }
    }
    free(a);
    return 0;
}
