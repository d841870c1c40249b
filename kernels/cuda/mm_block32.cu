// mm_block32.cu — y = W·x for the 32-element quantized types (Q4_0, Q4_1,
// Q5_0, Q5_1, Q8_0), read in the file's own layout, any number of rows.
//
// CPU reference: kernels/cpu/matmul.c with canon.c's krn_dot_q. THE ORDER,
// per output o and row r (kernels.h §2): per block b, the exact integer
// I_b = Σ q·qx (and s_b, the block's code sum), then
//     u_b = d_b · (float)I_b          or    (d_b · (float)I_b) + (m_b · (float)s_b)
// (Q4_1, Q5_1), each rounded; per group (8 blocks when the row is a
// multiple of 256 elements, else 1) w = 0.0f, w = w + u_b in block order and
// v = dx · w; per chunk of p.len groups part = 0.0f, part = part + v in
// order; dot = 0.0f, dot = dot + part in chunk order; then the epilogue.
//
// A warp per output; lane 4c + k takes chunk c (c < p.nchunks <= 8) and
// the quarter k of every block of it (words 2k, 2k + 1): two dp4a, then the
// four quarters' sums are added across lanes (integers: any order). The
// four lanes of a chunk then hold the same I_b and compute the same float
// sequence; the dot is formed from each chunk's partial in chunk order.
// Rows go in tiles of RT, each block's weights read once per tile.
#include "act.cuh"
#include "cuda_backend.h"
#include "mmq.cuh"
#include "qblock.cuh"

enum { KRN_CUDA__B32_WARPS = 4, KRN_CUDA__B32_RT = 4 };

// d_b and m_b of a legacy block at p (m_b: the min of Q4_1/Q5_1, else 0).
template <int T>
static __device__ __forceinline__ void block32_coef(const uint8_t *p, float *d, float *m) {
    *d = half_at2(p);
    *m = qt<T>::has_min ? half_at2(p + 2) : 0.0f;
}

template <int T>
__global__ void __launch_bounds__(32 * KRN_CUDA__B32_WARPS)
krn_cuda_mm_block32_kernel(const __grid_constant__ krn_cuda_mmq_params p) {
    grid_dep_sync(); // common.cuh: before any global access
    constexpr int RT = KRN_CUDA__B32_RT;
    const int lane = threadIdx.x & 31, c = lane >> 2, k = lane & 3;
    const int64_t oall = (int64_t)blockIdx.x * KRN_CUDA__B32_WARPS + (threadIdx.x >> 5);
    const int which = krn_cuda_mmq_which(p, (int)oall); // grp0 counts outputs here
    const krn_cuda_mmq_out &out = p.out[which];
    const int64_t o = oall - out.grp0;
    if (o >= out.ne1) return; // warp-uniform
    const uint8_t *row = out.w + (uint64_t)o * out.row_bytes;
    const int gb = p.group_blocks;
    const int g0 = c * p.len, g1 = min(g0 + p.len, p.nsb);
    const unsigned quad = 0xFu << (4 * c);
    for (int r0 = 0; r0 < p.n_rows; r0 += RT) {
        float part[RT];
#pragma unroll
        for (int rr = 0; rr < RT; rr++) part[rr] = 0.0f;
        for (int gi = g0; gi < g1; gi++) { // empty for the lanes past the chunks
            float w[RT];
#pragma unroll
            for (int rr = 0; rr < RT; rr++) w[rr] = 0.0f;
            for (int b = 0; b < gb; b++) {
                const int64_t jb = (int64_t)gi * gb + b;
                const uint8_t *bp = row + jb * qt<T>::bb;
                const int q0 = (int)code_word<T>(bp, 0, 2 * k), q1 = (int)code_word<T>(bp, 0, 2 * k + 1);
                float d, m;
                block32_coef<T>(bp, &d, &m);
#pragma unroll
                for (int rr = 0; rr < RT; rr++) {
                    const int r = min(r0 + rr, p.n_rows - 1);
                    const int8_t *xr = p.xq + (int64_t)r * p.q_stride;
                    int I = __dp4a(q0, *(const int *)(xr + act_word_offset(jb, 2 * k)), 0);
                    I = __dp4a(q1, *(const int *)(xr + act_word_offset(jb, 2 * k + 1)), I);
                    I += __shfl_xor_sync(quad, I, 1); // the chunk's 4 lanes,
                    I += __shfl_xor_sync(quad, I, 2); // which loop alike
                    float u = fmul(d, int_to_float(I));
                    if (qt<T>::has_min)
                        u = fadd(u, fmul(m, int_to_float((int)p.xs[(int64_t)r * p.s_stride + jb])));
                    w[rr] = fadd(w[rr], u);
                }
            }
#pragma unroll
            for (int rr = 0; rr < RT; rr++) {
                const int r = min(r0 + rr, p.n_rows - 1);
                part[rr] = fadd(part[rr], fmul(p.xd[(int64_t)r * p.d_stride + gi], w[rr]));
            }
        }
#pragma unroll
        for (int rr = 0; rr < RT; rr++) {
            float dot = 0.0f;
            for (int cc = 0; cc < p.nchunks; cc++)
                dot = fadd(dot, __shfl_sync(0xffffffffu, part[rr], 4 * cc));
            const int r = r0 + rr;
            if (lane == 0 && r < p.n_rows)
                krn_cuda_mm_store(dot, out.bias, out.accumulate, out.y + (int64_t)r * out.ldy + o, o);
        }
    }
}

int krn_cuda_mm_block32(krn_cuda_mmq_params *p, krn_type type, krn_cuda_exec ex, sb_err *err) {
    int64_t outputs = 0;
    for (int i = 0; i < p->n_out; i++) {
        p->out[i].grp0 = (int)outputs; // output offsets: a "group" is one output here
        outputs += p->out[i].ne1;
    }
    const unsigned grid = (unsigned)((outputs + KRN_CUDA__B32_WARPS - 1) / KRN_CUDA__B32_WARPS);
    const unsigned block = 32 * KRN_CUDA__B32_WARPS;
    switch (type) {
    case KRN_Q4_0: krn_cuda_launch(krn_cuda_mm_block32_kernel<KRN_Q4_0>, KRN_CUDA_PDL_GEMV, grid, block, 0, ex, *p); break;
    case KRN_Q4_1: krn_cuda_launch(krn_cuda_mm_block32_kernel<KRN_Q4_1>, KRN_CUDA_PDL_GEMV, grid, block, 0, ex, *p); break;
    case KRN_Q5_0: krn_cuda_launch(krn_cuda_mm_block32_kernel<KRN_Q5_0>, KRN_CUDA_PDL_GEMV, grid, block, 0, ex, *p); break;
    case KRN_Q5_1: krn_cuda_launch(krn_cuda_mm_block32_kernel<KRN_Q5_1>, KRN_CUDA_PDL_GEMV, grid, block, 0, ex, *p); break;
    case KRN_Q8_0: krn_cuda_launch(krn_cuda_mm_block32_kernel<KRN_Q8_0>, KRN_CUDA_PDL_GEMV, grid, block, 0, ex, *p); break;
    default:
        return sb_err_set(err, __func__, "type %s is not a 32-element quantized type",
                          krn_type_name((uint32_t)type));
    }
    return KRN_CUDA_LAUNCHED("krn_cuda_mm_block32_kernel", err);
}
