"""A small GGUF v3 reader and writer (stdlib only) for the exporter.

The reader keeps each metadata value with its type, so keys can be copied
from one file to another exactly (the exporter copies the tokenizer keys of
the model `sb prompt` tokenized the training set with). The writer takes
tensors as raw little-endian bytes, F32 only: `sb quantize` does the rest.
The reader gives F32 tensors back as arrays (train.py --init reads a model
`sb quantize ... --type f32` widened).
"""
import struct

U8, I8, U16, I16, U32, I32, F32, BOOL, STRING, ARRAY, U64, I64, F64 = range(13)
SCALAR = {U8: "<B", I8: "<b", U16: "<H", I16: "<h", U32: "<I", I32: "<i",
          F32: "<f", BOOL: "<?", U64: "<Q", I64: "<q", F64: "<d"}
GGML_F32 = 0
ALIGN = 32


class Reader:
    """Metadata as {key: (type, value)}; an array's value is
    (element_type, [values])."""

    def __init__(self, path):
        self.buf = open(path, "rb").read()
        if self.buf[:4] != b"GGUF":
            raise ValueError("%s: not a GGUF file" % path)
        self.pos = 4
        version, n_tensors, n_kv = self._u("<I"), self._u("<Q"), self._u("<Q")
        if version != 3:
            raise ValueError("%s: GGUF version %d, expected 3" % (path, version))
        self.kv = {}
        for _ in range(n_kv):
            key = self._str()
            t = self._u("<I")
            self.kv[key] = (t, self._value(t))
        self.tensors = {}
        for _ in range(n_tensors):
            name = self._str()
            dims = [self._u("<Q") for _ in range(self._u("<I"))]
            self.tensors[name] = (dims, self._u("<I"), self._u("<Q"))
        align = self.kv.get("general.alignment", (U32, ALIGN))[1]
        self.data_start = (self.pos + align - 1) // align * align

    def tensor_f32(self, name):
        """An F32 tensor as a numpy array, rows first (dims reversed)."""
        import numpy as np
        if name not in self.tensors:
            raise ValueError("no tensor %s" % name)
        dims, t, offset = self.tensors[name]
        if t != GGML_F32:
            raise ValueError("tensor %s has GGML type %d, not F32 (sb quantize "
                             "IN OUT --type f32 widens a model)" % (name, t))
        n = 1
        for d in dims:
            n *= d
        start = self.data_start + offset
        if start + 4 * n > len(self.buf):
            raise ValueError("tensor %s runs past the end of the file" % name)
        return np.frombuffer(self.buf, "<f4", n, start).reshape(list(reversed(dims)))

    def _u(self, fmt):
        v = struct.unpack_from(fmt, self.buf, self.pos)[0]
        self.pos += struct.calcsize(fmt)
        return v

    def _str(self):
        n = self._u("<Q")
        s = self.buf[self.pos:self.pos + n].decode("utf-8", "surrogateescape")
        self.pos += n
        return s

    def _value(self, t):
        if t == STRING:
            return self._str()
        if t == ARRAY:
            et, n = self._u("<I"), self._u("<Q")
            return (et, [self._value(et) for _ in range(n)])
        return self._u(SCALAR[t])


def _pack_str(s):
    b = s.encode("utf-8", "surrogateescape")
    return struct.pack("<Q", len(b)) + b


def _pack_value(t, v):
    if t == STRING:
        return _pack_str(v)
    if t == ARRAY:
        et, items = v
        return struct.pack("<IQ", et, len(items)) + b"".join(
            _pack_value(et, x) for x in items)
    return struct.pack(SCALAR[t], v)


def write(path, kv, tensors):
    """kv: list of (key, type, value); tensors: list of (name, dims, data)
    with dims in GGUF order (dims[0] is the row length) and data the F32
    little-endian bytes. Written to path + ".tmp", then renamed."""
    import os
    head = [b"GGUF", struct.pack("<IQQ", 3, len(tensors), len(kv))]
    for key, t, v in kv:
        head.append(_pack_str(key) + struct.pack("<I", t) + _pack_value(t, v))
    offset = 0
    for name, dims, data in tensors:
        n = 1
        for d in dims:
            n *= d
        if len(data) != 4 * n:
            raise ValueError("tensor %s: %d bytes for dims %s" % (name, len(data), dims))
        head.append(_pack_str(name) + struct.pack("<I", len(dims)) +
                    b"".join(struct.pack("<Q", d) for d in dims) +
                    struct.pack("<IQ", GGML_F32, offset))
        offset += (len(data) + ALIGN - 1) // ALIGN * ALIGN
    header = b"".join(head)
    with open(path + ".tmp", "wb") as f:
        f.write(header + b"\0" * (-len(header) % ALIGN))
        for _, _, data in tensors:
            f.write(data)
            f.write(b"\0" * (-len(data) % ALIGN))
    os.replace(path + ".tmp", path)
