"""Packed rows and model FLOPs for the demo model's training (stdlib only:
packed.py trains with them, batch_stats.py measures a data set with them
on a machine without PyTorch)."""


def pack_rows(lengths, order, row_len, window=2048):
    """Rows of example indices, each row's lengths summing to <= row_len:
    first fit, longest first, inside windows of `window` tasks of `order`
    (so a row mixes tasks from one stretch of the shuffled order)."""
    rows = []
    for w in range(0, len(order), window):
        chunk = sorted(order[w:w + window], key=lambda i: -lengths[i])
        room, mine = [], []
        for i in chunk:
            n = lengths[i]
            for r in range(len(room)):
                if room[r] >= n:
                    room[r] -= n
                    mine[r].append(i)
                    break
            else:
                room.append(row_len - n)
                mine.append([i])
        rows += mine
    return rows


def make_packed_batches(lengths, row_len, rows_per_batch, rng):
    """One epoch: batches of rows_per_batch packed rows, in random order."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    rows = pack_rows(lengths, order, row_len)
    rng.shuffle(rows)
    return [rows[k:k + rows_per_batch] for k in range(0, len(rows), rows_per_batch)
            if len(rows[k:k + rows_per_batch]) == rows_per_batch]


def flops_per_step(shape, lens, n_answer):
    """Model FLOPs of one training step (forward + backward = 3x forward):
    the matrices on every token, the LM head on answer tokens only (as the
    loss computes it), causal attention within each task."""
    e, ff, nl = shape["n_embd"], shape["n_ff"], shape["n_layer"]
    kv = e // shape["n_head"] * shape["n_head_kv"]
    per_token = 2 * nl * (2 * e * e + 2 * e * kv + 3 * e * ff)
    tokens = sum(lens)
    attn = nl * 2 * 2 * e * sum(n * (n + 1) / 2 for n in lens)  # QK^T and AV, causal half
    head = 2 * e * shape["n_vocab"] * n_answer
    return 3 * (per_token * tokens + attn + head)
