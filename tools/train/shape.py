"""The demo model's shape, in one place (stdlib only; train.py,
export_gguf.py and the size check read it).

Q8_0 stores 34 bytes per 32 weights. With tied embeddings:
  embedding  12,288 x 384                      =  4,718,592 weights
  per layer  q, o 384 x 384; k, v 384 x 128;
             gate, up, down 384 x 1,536        =  2,162,688 weights
  8 layers                                     = 17,301,504 weights
  total 22,020,096 weights -> 23,396,352 bytes of Q8_0, plus ~46 KB of
  f32 norms and biases and ~0.45 MB of vocabulary: about 23.9 MB, under
  the 25 MB the committed file may hold (`python3 shape.py` prints it).
"""
SHAPE = {
    "n_vocab": 12288,        # tools/train/vocab.json: 12,285 BPE tokens + 3 specials
    "n_embd": 384,
    "n_layer": 8,
    "n_head": 6,             # head_dim 64
    "n_head_kv": 2,          # grouped-query attention, 3 query heads per KV head
    "n_ff": 1536,
    "n_ctx": 4096,           # training sequences are at most this long
    "rope_base": 10000.0,
    "rms_eps": 1e-6,
    "tied": True,
}


def n_weights(s=SHAPE):
    hd = s["n_embd"] // s["n_head"]
    e, kv, ff = s["n_embd"], hd * s["n_head_kv"], s["n_ff"]
    layer = 2 * e * e + 2 * e * kv + 3 * e * ff
    vectors = 3 * e + 2 * kv  # two norms, q/k/v biases
    return s["n_vocab"] * e + s["n_layer"] * layer, s["n_layer"] * vectors + e


def q8_0_bytes(s=SHAPE):
    matrices, vectors = n_weights(s)
    return matrices // 32 * 34 + 4 * vectors


if __name__ == "__main__":
    m, v = n_weights()
    print("weights: %d in matrices, %d in vectors; Q8_0 tensor data %.2f MB "
          "(+ vocabulary metadata ~0.45 MB)" % (m, v, q8_0_bytes() / 1e6))
