/* The fast CART builder's compiled loops in C (kernels.py's numba loops, line for line),
   loaded by ctypes from infotree/grow/cloops.py.  They exist because numba costs a fit about
   110 MiB of resident memory (LLVM and its typing context) and this library costs none.

   Every array is C-contiguous unless a stride is passed (a column of the depth's arrays).
   Arrays of row numbers, classes and keys come in the dtypes the builder keeps them in; their
   item size (w*: 1 int8, 2 uint16, 4 int32, 8 int64) says which.  The float arithmetic is
   the numba loops' own, in the same order, and must be compiled without contraction into
   fused multiply-adds (-ffp-contract=off): the criterion's error bounds are for these
   roundings.  A loop that hands back candidates writes at most `cap` of them and returns how
   many there are; Python calls it again with room for them all (the loops' writes are the
   same the second time).  -1: out of memory. */

#define _DEFAULT_SOURCE   /* madvise under -std=c99 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#ifndef INFOTREE_SOURCE
#define INFOTREE_SOURCE ""
#endif

/* The digest of the sources this library was built from (setup.py; cloops compares it with
   the sources beside the library). */
const char *infotree_source(void) { return INFOTREE_SOURCE; }

static inline int64_t get(const void *p, int w, int64_t i) {
    switch (w) {
    case 1: return ((const int8_t *)p)[i];
    case 2: return ((const uint16_t *)p)[i];
    case 4: return ((const int32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
    }
}

static inline void put(void *p, int w, int64_t i, int64_t x) {
    switch (w) {
    case 1: ((int8_t *)p)[i] = (int8_t)x; break;
    case 2: ((uint16_t *)p)[i] = (uint16_t)x; break;
    case 4: ((int32_t *)p)[i] = (int32_t)x; break;
    default: ((int64_t *)p)[i] = x;
    }
}

/* A value code (V: int16 where every numeric feature has fewer than 2^15 values, else
   int32; −1 missing): wv is its item size. */
static inline int32_t getv(const void *v, int wv, int64_t i) {
    return wv == 2 ? ((const int16_t *)v)[i] : ((const int32_t *)v)[i];
}

static inline void putv(void *v, int wv, int64_t i, int32_t x) {
    if (wv == 2) ((int16_t *)v)[i] = (int16_t)x; else ((int32_t *)v)[i] = x;
}

/* n − Σc²/n in floats, the sum in class order (Gini.n_impurity_floats). */
static inline double gini_n_impurity(const int64_t *c, int64_t nc, double n) {
    double sq = (double)c[0] * (double)c[0];
    for (int64_t i = 1; i < nc; i++) sq += (double)c[i] * (double)c[i];
    return n - sq / n;
}

/* The depth's arrays of one feature: a node's entries `s` apart (`sL` for the counts). */
typedef struct {
    uint8_t *has; int64_t *tried, *L, *R, *lo, *hi; double *imp, *bnd; int64_t s, sL;
} Out;

/* The cuts handed back for Python's exact decision. */
typedef struct {
    int64_t cap, m, *pos, *node, *feat; double *val, *bnd; int64_t *L; int64_t width;
} Cands;

static inline void cand(Cands *c, int64_t i, int64_t k, double x, double b, const int64_t *L, int64_t f) {
    if (c->m < c->cap) {
        int64_t m = c->m;
        c->pos[m] = i; c->node[m] = k; c->val[m] = x; c->bnd[m] = b;
        if (c->feat) c->feat[m] = f;
        memcpy(c->L + m * c->width, L, c->width * sizeof(int64_t));
    }
    c->m++;
}

static inline int cut_after(const void *v, int wv, int64_t i, int64_t nl, int64_t kn, int64_t min_leaf) {
    return getv(v, wv, i) != getv(v, wv, i + 1) && nl >= min_leaf && kn - nl >= min_leaf;
}

/* kernels._gini_cuts of feature f (its candidates tagged f); scratch: a double per row,
   L, R, best_L: nc each. */
static void gini_feature(const void *order, int wo, const void *y, int wy, const int64_t *w, const void *v, int wv,
                         const int64_t *starts, const int64_t *ends, int64_t K, int64_t nc, const int64_t *CC,
                         int64_t min_leaf, int has_missing, int64_t exact_rows, Out o, int64_t *P, Cands *c,
                         int64_t f, const uint8_t *want, int64_t F, double *scratch, int64_t *L, int64_t *R,
                         int64_t *best_L) {
    memcpy(P, CC, K * nc * sizeof(int64_t));
    for (int64_t k = 0; k < K; k++) {
        if (want && !want[k * F + f]) continue;
        int64_t s = starts[k], e = ends[k], ke = e;
        int64_t *Pk = P + k * nc;
        if (has_missing) {  /* the known rows' counts */
            for (int64_t a = 0; a < nc; a++) Pk[a] = 0;
            for (int64_t i = s; i < e; i++) {
                if (getv(v, wv, i) < 0) { ke = i; break; }
                int64_t r = get(order, wo, i);
                Pk[get(y, wy, r)] += w ? w[r] : 1;
            }
        }
        if (ke - s < 2) continue;
        int64_t kn = 0;
        for (int64_t a = 0; a < nc; a++) kn += Pk[a];
        double n = (double)kn, sq = 0.0;
        for (int64_t a = 0; a < nc; a++) { L[a] = 0; sq += (double)Pk[a] * (double)Pk[a]; }
        double vp = n - sq / n, b = ldexp(1.0, -47) * n, top = -INFINITY;
        int64_t best = -1, count = 0, nl = 0;
        for (int64_t i = s; i < ke - 1; i++) {
            int64_t r = get(order, wo, i), cw = w ? w[r] : 1;
            L[get(y, wy, r)] += cw;
            nl += cw;
            if (!cut_after(v, wv, i, nl, kn, min_leaf)) continue;
            for (int64_t a = 0; a < nc; a++) R[a] = Pk[a] - L[a];
            double x = vp - gini_n_impurity(L, nc, (double)nl) - gini_n_impurity(R, nc, n - (double)nl);
            scratch[count++] = x;
            if (x > top) { top = x; best = i; memcpy(best_L, L, nc * sizeof(int64_t)); }
        }
        if (!count) continue;
        o.has[k * o.s] = 1; o.tried[k * o.s] = count;
        double floor_ = top - b;
        int64_t near = 0;
        for (int64_t t = 0; t < count; t++) near += scratch[t] + b >= floor_;
        int exact = kn <= exact_rows;
        if (near >= 2) {
            for (int64_t a = 0; a < nc; a++) L[a] = 0;
            nl = 0;
            int64_t t = 0, best_num = -1, best_den = 1;
            for (int64_t i = s; i < ke - 1; i++) {
                int64_t r = get(order, wo, i), cw = w ? w[r] : 1;
                L[get(y, wy, r)] += cw;
                nl += cw;
                if (!cut_after(v, wv, i, nl, kn, min_leaf)) continue;
                double x = scratch[t++];
                if (x + b < floor_) continue;
                if (!exact) { cand(c, i, k, x, b, L, f); continue; }
                /* num/den = S_L·n_R + S_R·n_L over n_L·n_R, crosswise in int64: see kernels.py */
                int64_t nr = kn - nl, sl = 0, sr = 0;
                for (int64_t a = 0; a < nc; a++) { sl += L[a] * L[a]; sr += (Pk[a] - L[a]) * (Pk[a] - L[a]); }
                int64_t num = sl * nr + sr * nl, den = nl * nr;
                if (best_num < 0 || num * best_den > best_num * den) {
                    best_num = num; best_den = den; best = i; top = x;
                    memcpy(best_L, L, nc * sizeof(int64_t));
                }
            }
            if (!exact) continue;
        }
        for (int64_t a = 0; a < nc; a++) { o.L[k * o.sL + a] = best_L[a]; o.R[k * o.sL + a] = Pk[a] - best_L[a]; }
        o.lo[k * o.s] = getv(v, wv, best); o.hi[k * o.s] = getv(v, wv, best + 1); o.imp[k * o.s] = top; o.bnd[k * o.s] = b;
    }
}

/* kernels._regression_cuts of feature f: a side's statistics are (n, Σy, Σy²). */
static void regression_feature(const void *order, int wo, const void *y, int wy, const void *v, int wv,
                               const int64_t *starts, const int64_t *ends, int64_t K, const int64_t *CC,
                               int64_t min_leaf, int has_missing, Out o, int64_t *P, Cands *c, int64_t f,
                               const uint8_t *want, int64_t F, double *scratch) {
    const double eps = ldexp(1.0, -48);
    memcpy(P, CC, K * 3 * sizeof(int64_t));
    for (int64_t k = 0; k < K; k++) {
        if (want && !want[k * F + f]) continue;
        int64_t s = starts[k], e = ends[k], ke = e;
        int64_t *Pk = P + k * 3;
        if (has_missing) {
            int64_t kn = 0, S = 0, Q = 0;
            for (int64_t i = s; i < e; i++) {
                if (getv(v, wv, i) < 0) { ke = i; break; }
                int64_t yi = get(y, wy, get(order, wo, i));
                kn += 1; S += yi; Q += yi * yi;
            }
            Pk[0] = kn; Pk[1] = S; Pk[2] = Q;
        }
        if (ke - s < 2) continue;
        int64_t kn = Pk[0], S = Pk[1], best = -1, bn = 0, bS = 0, bQ = 0, count = 0, nl = 0, SL = 0, QL = 0;
        double top = -INFINITY;
        for (int64_t i = s; i < ke - 1; i++) {
            int64_t yi = get(y, wy, get(order, wo, i));
            nl += 1; SL += yi; QL += yi * yi;
            if (!cut_after(v, wv, i, nl, kn, min_leaf)) continue;
            int64_t nr = kn - nl;
            double d = (double)(SL * nr - (S - SL) * nl);
            double x = d * d / ((double)nl * (double)nr * (double)kn);
            scratch[count++] = x;
            if (x > top) { top = x; best = i; bn = nl; bS = SL; bQ = QL; }
        }
        if (!count) continue;
        o.has[k * o.s] = 1; o.tried[k * o.s] = count;
        double floor_ = top - eps * top;
        int64_t near = 0;
        for (int64_t t = 0; t < count; t++) near += scratch[t] + eps * scratch[t] >= floor_;
        if (near < 2) {
            int64_t *Lk = o.L + k * o.sL, *Rk = o.R + k * o.sL;
            Lk[0] = bn; Lk[1] = bS; Lk[2] = bQ;
            Rk[0] = Pk[0] - bn; Rk[1] = Pk[1] - bS; Rk[2] = Pk[2] - bQ;
            o.lo[k * o.s] = getv(v, wv, best); o.hi[k * o.s] = getv(v, wv, best + 1); o.imp[k * o.s] = top; o.bnd[k * o.s] = eps * top;
            continue;
        }
        nl = SL = QL = 0;
        int64_t t = 0;
        for (int64_t i = s; i < ke - 1; i++) {
            int64_t yi = get(y, wy, get(order, wo, i));
            nl += 1; SL += yi; QL += yi * yi;
            if (!cut_after(v, wv, i, nl, kn, min_leaf)) continue;
            double x = scratch[t++];
            if (x + eps * x >= floor_) {
                int64_t Lc[3] = {nl, SL, QL};
                cand(c, i, k, x, eps * x, Lc, f);
            }
        }
    }
}

/* kernels.cuts_all: every numeric feature f (a row of O and V, n long) into column js[f] of
   the depth's (K × J) arrays; P: F × K × nc.  want (K × F, or NULL: every pair): the nodes
   that drew feature f (a forest's), the others skipped.  Returns the candidates' count (see above). */
int64_t cuts_all(const void *O, int wo, const void *V, int wv, int64_t F, int64_t n, const int64_t *js, const void *y,
                 int wy, const int64_t *w, int regression, const int64_t *starts, const int64_t *ends, int64_t K,
                 int64_t nc, const int64_t *CC, int64_t min_leaf, int has_missing, uint8_t *has, int64_t *tried,
                 int64_t *L, int64_t *R, int64_t *lo, int64_t *hi, double *imp, double *bnd, int64_t s,
                 int64_t sL, int64_t exact_rows, int64_t *P, int64_t cap, int64_t *cpos, int64_t *cnode,
                 int64_t *cfeat, double *cval, double *cbnd, int64_t *cL, const uint8_t *want) {
    Cands c = {cap, 0, cpos, cnode, cfeat, cval, cbnd, cL, nc};
    double *scratch = malloc((n > 0 ? n : 1) * sizeof(double));
    int64_t *tmp = malloc(3 * (nc > 0 ? nc : 1) * sizeof(int64_t));
    if (!scratch || !tmp) { free(scratch); free(tmp); return -1; }
    for (int64_t f = 0; f < F; f++) {
        int64_t j = js[f];
        Out o = {has + j, tried + j, L + j * nc, R + j * nc, lo + j, hi + j, imp + j, bnd + j, s, sL};
        const char *Of = (const char *)O + f * n * wo;
        if (regression)
            regression_feature(Of, wo, y, wy, (const char *)V + f * n * wv, wv, starts, ends, K, CC, min_leaf, has_missing, o,
                               P + f * K * 3, &c, f, want, F, scratch);
        else
            gini_feature(Of, wo, y, wy, w, (const char *)V + f * n * wv, wv, starts, ends, K, nc, CC, min_leaf, has_missing, exact_rows, o,
                         P + f * K * nc, &c, f, want, F, scratch, tmp, tmp + nc, tmp + 2 * nc);
    }
    free(scratch); free(tmp);
    return c.m;
}

/* kernels._surrogate_cuts of every numeric feature f (want: K × F; outputs F × K): the first
   cut of most agreement with each side holding two directed rows, kept if it beats the
   majority. */
void surrogate_cuts_all(const void *O, int wo, const void *V, int wv, int64_t F, int64_t n, const int8_t *fdir,
                        const int64_t *starts, const int64_t *ends, int64_t K, const uint8_t *want, const int64_t *T,
                        int has_missing, int64_t *both, int64_t *most, uint8_t *found, int64_t *agree, int64_t *at,
                        uint8_t *low_right) {
    for (int64_t f = 0; f < F; f++) {
        const char *Of = (const char *)O + f * n * wo;
        const char *v = (const char *)V + f * n * wv;
        for (int64_t k = 0; k < K; k++) {
            int64_t s = starts[k], e = ends[k], T0 = T[2 * k], T1 = T[2 * k + 1], q = f * K + k;
            if (has_missing) {
                T0 = T1 = 0;
                for (int64_t i = s; i < e; i++) {
                    if (getv(v, wv, i) < 0) break;
                    int8_t d = fdir[get(Of, wo, i)];
                    T0 += d == 0; T1 += d == 1;
                }
            }
            both[q] = T0 + T1; most[q] = T0 > T1 ? T0 : T1;
            found[q] = 0; agree[q] = 0; at[q] = 0; low_right[q] = 0;
            if (!want[k * F + f]) continue;
            int64_t best = -1, where = -1, lr = 0, rr = 0;
            int side = 0;
            for (int64_t i = s; i < e - 1; i++) {
                if (has_missing && getv(v, wv, i + 1) < 0) break;  /* the known values lead the segment */
                int8_t d = fdir[get(Of, wo, i)];
                lr += d == 0; rr += d == 1;
                if (getv(v, wv, i) == getv(v, wv, i + 1)) continue;
                int64_t ll = T0 - lr, rl = T1 - rr;
                if (lr + rr >= 2 && ll + rl >= 2) {
                    int64_t A = ll + rr, B = lr + rl, top = A > B ? A : B;
                    if (top > best) { best = top; where = i; side = B > A; }
                }
            }
            if (best > most[q]) { found[q] = 1; agree[q] = best; at[q] = where; low_right[q] = (uint8_t)side; }
        }
    }
}

/* kernels.regroup_all (F == 1 and no V: regroup): each row of O's rows that have a next node
   (new_id[row] != none), grouped by it, stably, each group at its start; V carried along. */
int regroup_all(const void *O, int wo, const void *V, int wv, int64_t F, int64_t n, const void *new_id, int wk,
                const int64_t *starts, int64_t K, int64_t total, int64_t none, void *On, void *Vn) {
    int64_t *at = malloc((K > 0 ? K : 1) * sizeof(int64_t));
    if (!at) return -1;
    for (int64_t f = 0; f < F; f++) {
        const char *Of = (const char *)O + f * n * wo;
        char *Onf = (char *)On + f * total * wo;
        memcpy(at, starts, K * sizeof(int64_t));
        for (int64_t i = 0; i < n; i++) {
            int64_t r = get(Of, wo, i), k = get(new_id, wk, r);
            if (k == none) continue;
            put(Onf, wo, at[k], r);
            if (V) putv(Vn, wv, f * total + at[k], getv(V, wv, f * n + i));
            at[k]++;
        }
    }
    free(at);
    return 0;
}

/* The whole pages of [from, to) given back to the system: memory of an array that the
   array no longer uses (read again, they would be zeros; they are not read again). */
static void release(char *from, char *to) {
#if defined(MADV_DONTNEED)
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)from + page - 1) / page * page, b = (uintptr_t)to / page * page;
    if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
#else
    (void)from; (void)to;
#endif
}

/* kernels.regroup_all in place: row f's kept rows (and their codes) are written at f·total,
   O and V becoming their first F·total items, F × total, and the pages past them given back.
   A row is read whole into scratch before it is written, and f·total <= f·n: no row is
   overwritten before it is read.  One generation of the depth's arrays, shrinking, where a
   copy held two (80 MB at 10^6 rows × 10). */
int regroup_in_place(void *O, int wo, void *V, int wv, int64_t F, int64_t n, const void *new_id, int wk,
                     const int64_t *starts, int64_t K, int64_t total, int64_t none) {
    int64_t *at = malloc((K > 0 ? K : 1) * sizeof(int64_t));
    char *so = malloc((total > 0 ? total : 1) * wo);
    char *sv = malloc((total > 0 ? total : 1) * wv);
    if (!at || !so || !sv) { free(at); free(so); free(sv); return -1; }
    for (int64_t f = 0; f < F; f++) {
        const char *Of = (const char *)O + f * n * wo;
        const char *Vf = (const char *)V + f * n * wv;
        memcpy(at, starts, K * sizeof(int64_t));
        for (int64_t i = 0; i < n; i++) {
            int64_t r = get(Of, wo, i), k = get(new_id, wk, r);
            if (k == none) continue;
            put(so, wo, at[k], r);
            putv(sv, wv, at[k]++, getv(Vf, wv, i));
        }
        memcpy((char *)O + f * total * wo, so, total * wo);
        memcpy((char *)V + f * total * wv, sv, total * wv);
    }
    release((char *)O + F * total * wo, (char *)O + F * n * wo);
    release((char *)V + F * total * wv, (char *)V + F * n * wv);
    free(at); free(so); free(sv);
    return 0;
}

/* kernels.child_stats: each child's (n, Σy, Σy²) (child[i]: row rows[i]'s, −1 none). */
void child_stats(const int64_t *child, const int64_t *rows, int64_t n, const int64_t *yv, int64_t *block) {
    for (int64_t i = 0; i < n; i++) {
        int64_t c = child[i];
        if (c < 0) continue;
        int64_t y = yv[rows[i]];
        block[3 * c] += 1; block[3 * c + 1] += y; block[3 * c + 2] += y * y;
    }
}

/* kernels.directions: each row's branch at its node's split (0: left, 1: right), or -1 where
   its node does not split (f_of < 0), its value is missing, or its feature is a nominal one of
   more than 62 values (kind 2: the caller's): a numeric code against the cut's low rank, a
   nominal code's bit in the left set. */
void directions(const void *rows, int wr, const void *nid, int wn, int64_t n, const int32_t *Xt, int64_t N,
                const int64_t *f_of, const int64_t *lo, const int64_t *mask, const int8_t *kind, int64_t *d) {
    for (int64_t i = 0; i < n; i++) {
        int64_t k = get(nid, wn, i), f = f_of[k], out = -1;
        if (f >= 0) {
            int32_t x = Xt[f * N + get(rows, wr, i)];
            if (x >= 0 && kind[f] == 0) out = x > lo[k];
            else if (x >= 0 && kind[f] == 1) out = 1 - ((mask[k] >> x) & 1);
        }
        d[i] = out;
    }
}

/* kernels.children: each row's child (2·slot of its node + its direction; -1: none) and the
   children's class counts, a row counted w[row] times where weighted. */
void children(const void *rows, int wr, const void *nid, int wn, int64_t n, const int64_t *d, const int64_t *slot,
              const void *y, int wy, const void *w, int ww, int weighted, int64_t nc, int64_t *child, int64_t *block) {
    for (int64_t i = 0; i < n; i++) {
        int64_t s = slot[get(nid, wn, i)], c = -1;
        if (s >= 0 && d[i] >= 0) {
            int64_t r = get(rows, wr, i);
            c = 2 * s + d[i];
            block[c * nc + get(y, wy, r)] += weighted ? get(w, ww, r) : 1;
        }
        child[i] = c;
    }
}
