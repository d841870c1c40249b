// kquant.cuh — private to kernels/cuda/: the K-quant weights (Q4_K, Q5_K,
// Q6_K) as the tensor-core matmul reads them (mmq.cu), written once at load
// by repack.cu.
//
// A matrix of ne1 rows is cut into tiles of 16 rows (the last padded with
// zero rows); each (tile, super-block) is one record of 16 x the ggml
// block's bytes, records tile-major (tile 0's super-blocks 0 .. nsb - 1,
// then tile 1's ...). Only where the bytes sit changes, never a value.
//
// Inside a record, "planes" of 512 bytes give each lane of a warp (lane
// L = 4g + t) its 16 bytes of an MMA A fragment pair: with R(r, o) the
// 4 bytes at offset o of row r's codes (ggml's qs / ql / qh), row r = g and
// g + 8 of the tile, lane L's 16 bytes of plane P are at 512 P + 16 L:
//   Q4_K (2304 bytes): planes p = 0..3: R(g, 32p+4t), R(g, 32p+16+4t),
//       R(g+8, 32p+4t), R(g+8, 32p+16+4t) of qs (the low nibbles are
//       sub-block 2p, the high nibbles 2p + 1); then the 16 rows' 16-byte
//       headers (d, dmin, 12 bytes of 6-bit scales and mins) at 2048.
//   Q5_K (2816): its qs as Q4_K's, plane 4 (at 2048): qh's R(g, 4t),
//       R(g, 16+4t), R(g+8, 4t), R(g+8, 16+4t) (bit j of a byte is the
//       fifth bit of that element of sub-block j); headers at 2560.
//   Q6_K (3360): planes 2h + s (h = 0, 1 the 128-element halves, s = 0 for
//       row g, 1 for g + 8): ql's R(r, 64h+4t), R(r, 64h+16+4t),
//       R(r, 64h+32+4t), R(r, 64h+48+4t); planes 4 + s: qh's R(r, 4t),
//       R(r, 16+4t), R(r, 32+4t), R(r, 48+4t); then the rows' 16 int8
//       scales at 3072 and their fp16 d at 3328.
#ifndef SB_KERNELS_CUDA_KQUANT_CUH
#define SB_KERNELS_CUDA_KQUANT_CUH

#include "common.cuh"

template <int T> struct kq;
template <> struct kq<KRN_Q4_K> { enum { bb = 144, rec = 2304, hdr = 2048, has_min = 1 }; };
template <> struct kq<KRN_Q5_K> { enum { bb = 176, rec = 2816, qh = 2048, hdr = 2560, has_min = 1 }; };
template <> struct kq<KRN_Q6_K> { enum { bb = 210, rec = 3360, sc = 3072, d = 3328, has_min = 0 }; };

enum { KRN_CUDA_KQ_TILE = 16 };

#endif // SB_KERNELS_CUDA_KQUANT_CUH
