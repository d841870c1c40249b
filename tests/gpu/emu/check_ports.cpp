// check_ports.cpp — a development aid (`make test-gpu-emu`): the device
// ports of kernels/cuda/*.cuh, compiled for the host against the emulated
// runtime, compared bit for bit with the CPU functions they port.
//
//   unpack_block<T> vs krn_unpack_row, dequant_elem vs krn_dequantize_row
//     (random bytes and quantized rows, every type);
//   matmul's lane order (block j to lane j % 32, block values from
//     dot.cuh, the shuffle-xor fold read at lane 0) vs krn_dot_q/krn_dot_f;
//   the lane sum of n = 1..599 floats vs krn_lane_sum;
//   with the argument `all`: half_to_float on every half, and float_to_half,
//     krn_cuda_exp and krn_cuda_log on every float bit pattern (minutes).
//
// Exits 1 on the first 20 mismatches reported.
#include <stdio.h>

#include <vector>

#include "kernels/cuda/canon_math.cuh"
#include "kernels/cuda/dot.cuh"

static int fails = 0;
#define CHECK(c, ...)                                        \
    do {                                                     \
        if (!(c) && fails++ < 20) {                          \
            printf(__VA_ARGS__);                             \
            printf("\n");                                    \
        }                                                    \
    } while (0)

static uint32_t bits(float f) { return __float_as_uint(f); }

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng() {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static float rnd(float scale) {
    return (float)((int64_t)(rng() % 2000001) - 1000000) * 1e-6f * scale;
}

static const krn_type ALL[] = {KRN_F32, KRN_F16, KRN_BF16, KRN_Q4_0, KRN_Q4_1, KRN_Q5_0,
                               KRN_Q5_1, KRN_Q8_0, KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};

static void unpack_any(krn_type t, const uint8_t *row, int j, krn_cuda_wblock *o) {
    switch (t) {
    case KRN_Q4_0: unpack_block<KRN_Q4_0>(row, j, o); break;
    case KRN_Q4_1: unpack_block<KRN_Q4_1>(row, j, o); break;
    case KRN_Q5_0: unpack_block<KRN_Q5_0>(row, j, o); break;
    case KRN_Q5_1: unpack_block<KRN_Q5_1>(row, j, o); break;
    case KRN_Q8_0: unpack_block<KRN_Q8_0>(row, j, o); break;
    case KRN_Q4_K: unpack_block<KRN_Q4_K>(row, j, o); break;
    case KRN_Q5_K: unpack_block<KRN_Q5_K>(row, j, o); break;
    case KRN_Q6_K: unpack_block<KRN_Q6_K>(row, j, o); break;
    default: abort();
    }
}

// A row of n weights of type t: random bytes, or (sane) quantized from
// random floats; Q4_1/Q5_1, which krn_quantize_row does not make, get
// random bytes with small finite halves for d and m.
static std::vector<uint8_t> make_row(krn_type t, int64_t n, bool sane) {
    uint64_t rb = 0;
    krn_row_bytes(t, n, &rb);
    std::vector<uint8_t> row(rb);
    if (sane && t != KRN_Q4_1 && t != KRN_Q5_1) {
        std::vector<float> x((size_t)n);
        for (auto &v : x) v = rnd(1.0f);
        krn_quantize_row(t, x.data(), row.data(), n);
        return row;
    }
    for (auto &b : row) b = (uint8_t)rng();
    if (sane) {
        const int bb = t == KRN_Q4_1 ? 20 : 24;
        for (int64_t i = 0; i < n / 32; i++) {
            row[(size_t)(i * bb + 1)] = (uint8_t)(0x10 + rng() % 0x10);
            row[(size_t)(i * bb + 3)] = (uint8_t)(0x90 + rng() % 0x10);
        }
    }
    return row;
}

static void check_unpack_dequant() {
    const int64_t n = 2304;
    for (int pass = 0; pass < 20; pass++)
        for (krn_type t : ALL) {
            const std::vector<uint8_t> row = make_row(t, n, pass % 2);
            std::vector<float> want((size_t)n);
            krn_dequantize_row(t, row.data(), want.data(), n);
            for (int64_t e = 0; e < n; e++)
                CHECK(bits(dequant_elem(t, row.data(), e)) == bits(want[(size_t)e]),
                      "dequant %s element %lld", krn_type_name(t), (long long)e);
            if (!krn_type_is_quantized(t)) continue;
            std::vector<krn_wblock> wb((size_t)n / 32);
            krn_unpack_row(t, row.data(), wb.data(), n);
            for (int j = 0; j < n / 32; j++) {
                krn_cuda_wblock o;
                unpack_any(t, row.data(), j, &o);
                const krn_wblock &w = wb[(size_t)j];
                CHECK(bits(o.d) == bits(w.d), "unpack %s block %d: d", krn_type_name(t), j);
                CHECK(!krn_type_has_min(t) || bits(o.m) == bits(w.m), "unpack %s block %d: m",
                      krn_type_name(t), j);
                CHECK(o.mul_lo == w.mul_lo && o.mul_hi == w.mul_hi, "unpack %s block %d: mul",
                      krn_type_name(t), j);
                for (int i = 0; i < 32; i++)
                    CHECK((int8_t)(o.q[i / 4] >> (8 * (i % 4))) == w.q[i],
                          "unpack %s block %d: code %d", krn_type_name(t), j, i);
            }
        }
}

// warp_fold's shuffle-xor butterfly on 32 lane values; every lane must end
// with lane 0's value.
static float fold32(float *v) {
    for (int off = 16; off >= 1; off >>= 1) {
        float nv[32];
        for (int l = 0; l < 32; l++) nv[l] = fadd(v[l], v[l ^ off]);
        memcpy(v, nv, sizeof nv);
    }
    for (int l = 1; l < 32; l++) CHECK(bits(v[l]) == bits(v[0]), "fold: lane %d differs", l);
    return v[0];
}

// One output of matmul.cu's kernels, the lanes run one after another.
static float lanes_dot(krn_type t, const uint8_t *row, const float *x,
                       const krn_act_block *xq, int64_t n) {
    float lane[32] = {0};
    for (int l = 0; l < 32; l++)
        for (int64_t j = l; j < n / 32; j += 32) {
            float v;
            if (krn_type_is_quantized(t)) {
                krn_cuda_wblock o;
                unpack_any(t, row, (int)j, &o);
                v = krn_type_has_min(t) ? block_value_q<true>(&o, &xq[j])
                                        : block_value_q<false>(&o, &xq[j]);
            } else {
                float wv[32];
                for (int i = 0; i < 32; i++) wv[i] = dequant_elem(t, row, j * 32 + i);
                v = block_value_f(wv, &x[j * 32]);
            }
            lane[l] = fadd(lane[l], v);
        }
    return fold32(lane);
}

static void check_dots() {
    for (int64_t n : {256, 512, 1280, 2304, 9216}) {
        for (int pass = 0; pass < 10; pass++) {
            std::vector<float> x((size_t)n);
            for (auto &v : x) v = rnd((float)(pass + 1));
            std::vector<krn_act_block> xq((size_t)n / 32);
            krn_quantize_act(x.data(), xq.data(), n);
            for (krn_type t : ALL) {
                if (n % krn_type_block_elems(t)) continue;
                const std::vector<uint8_t> row = make_row(t, n, true);
                float want;
                if (krn_type_is_quantized(t)) {
                    std::vector<krn_wblock> wb((size_t)n / 32);
                    krn_unpack_row(t, row.data(), wb.data(), n);
                    want = krn_dot_q(wb.data(), xq.data(), n / 32, krn_type_has_min(t));
                } else {
                    std::vector<float> w((size_t)n);
                    krn_dequantize_row(t, row.data(), w.data(), n);
                    want = krn_dot_f(w.data(), x.data(), n);
                }
                const float got = lanes_dot(t, row.data(), x.data(), xq.data(), n);
                CHECK(bits(got) == bits(want), "dot %s n %lld: %a, CPU %a", krn_type_name(t),
                      (long long)n, (double)got, (double)want);
            }
        }
    }
    for (int n = 1; n < 600; n++) {
        std::vector<float> v((size_t)n);
        for (auto &e : v) e = rnd(1000.0f);
        float lane[32] = {0};
        for (int l = 0; l < 32; l++)
            for (int i = l; i < n; i += 32) lane[l] = fadd(lane[l], v[(size_t)i]);
        CHECK(bits(fold32(lane)) == bits(krn_lane_sum(v.data(), n)), "lane sum of %d", n);
    }
}

static void check_all_bit_patterns() {
    for (uint32_t h = 0; h < 65536; h++)
        CHECK(bits(half_to_float(h)) == bits(krn_fp16_to_fp32((uint16_t)h)), "half %04x", h);
    for (uint64_t u = 0; u < (1ull << 32); u++) {
        const float f = __uint_as_float((uint32_t)u);
        CHECK(float_to_half(f) == krn_fp32_to_fp16(f), "to half %08llx", (unsigned long long)u);
        CHECK(bits(krn_cuda_exp(f)) == bits(krn_exp(f)), "exp %08llx", (unsigned long long)u);
        CHECK(bits(krn_cuda_log(f)) == bits(krn_log(f)), "log %08llx", (unsigned long long)u);
    }
}

int main(int argc, char **argv) {
    check_unpack_dequant();
    check_dots();
    if (argc > 1 && !strcmp(argv[1], "all")) check_all_bit_patterns();
    printf("check_ports: %s (%d mismatches)\n", fails ? "FAILED" : "ok", fails);
    return fails != 0;
}
