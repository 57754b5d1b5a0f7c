#!/usr/bin/env python3
"""tools/llama-model.py - writes a random-weight llama-architecture GGUF model
with llama.cpp's own gguf-py, for measuring llama-bench where no real model
can be fetched (the outputs are meaningless; the memory traffic is a real
model's: same tensors, shapes and types).

  python3 tools/llama-model.py --gguf-py LLAMA_SRC/gguf-py -o m.gguf            # ~168 M, F16, 321 MiB
  python3 tools/llama-model.py --gguf-py LLAMA_SRC/gguf-py -o big.gguf --size 8b

Weights: one pool of N(0, 0.02) values (as F16), each tensor a slice of it at
a random offset, so writing 16 GB costs the disk, not the random generator.
Norm weights are 1. Vocabulary: "llama" (SPM) tokens <unk> <s> </s>, the 256
byte tokens llama.cpp looks up, then filler tokens.
"""
import argparse
import os
import sys
import time
import types

SIZES = {
    # name: (n_vocab, n_embd, n_layer, n_ff, n_head, n_head_kv)
    "168m": (32000, 768, 16, 2048, 12, 12),
    "1b": (32000, 2048, 16, 5632, 16, 4),
    "8b": (32000, 4096, 32, 14336, 32, 8),
    "13b": (32000, 5120, 40, 13824, 40, 40),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gguf-py", required=True, help="llama.cpp's gguf-py folder")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--size", default="168m", choices=sorted(SIZES))
    ap.add_argument("--seed", type=int, default=17)
    a = ap.parse_args()
    sys.path.insert(0, a.gguf_py)
    import numpy as np
    # gguf-py's __init__ imports its vocabulary and metadata helpers, which
    # need sentencepiece and yaml; writing a model needs neither
    for name in ("sentencepiece", "yaml"):
        try:
            __import__(name)
        except ImportError:
            stub = types.ModuleType(name)
            stub.SentencePieceProcessor = None
            sys.modules[name] = stub
    import gguf

    n_vocab, n_embd, n_layer, n_ff, n_head, n_head_kv = SIZES[a.size]
    head_dim = n_embd // n_head
    t0 = time.time()
    rng = np.random.default_rng(a.seed)
    pool = (rng.standard_normal(64 << 20, dtype=np.float32) * 0.02).astype(np.float16)

    def weight(*shape):
        n = int(np.prod(shape))
        out = np.empty(n, dtype=np.float16)
        done = 0
        while done < n:
            off = int(rng.integers(0, pool.size))
            take = min(n - done, pool.size - off)
            out[done:done + take] = pool[off:off + take]
            done += take
        return out.reshape(shape)

    w = gguf.GGUFWriter(a.output, "llama")
    w.add_name("mempath-random-" + a.size)
    w.add_context_length(4096)
    w.add_embedding_length(n_embd)
    w.add_block_count(n_layer)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head_kv)
    w.add_rope_dimension_count(head_dim)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    w.add_tokenizer_model("llama")
    tokens = ["<unk>", "<s>", "</s>"] + ["<0x%02X>" % b for b in range(256)]
    tokens += ["t%d" % i for i in range(n_vocab - len(tokens))]
    tok_types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL]
    tok_types += [gguf.TokenType.BYTE] * 256
    tok_types += [gguf.TokenType.NORMAL] * (n_vocab - len(tok_types))
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * n_vocab)
    w.add_token_types(tok_types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    ones = np.ones(n_embd, dtype=np.float32)
    # numpy shapes are (rows, cols); GGUF stores them reversed, as llama.cpp wants
    w.add_tensor("token_embd.weight", weight(n_vocab, n_embd))
    w.add_tensor("output_norm.weight", ones)
    w.add_tensor("output.weight", weight(n_vocab, n_embd))
    kv = head_dim * n_head_kv
    for i in range(n_layer):
        b = "blk.%d." % i
        w.add_tensor(b + "attn_norm.weight", ones)
        w.add_tensor(b + "attn_q.weight", weight(n_embd, n_embd))
        w.add_tensor(b + "attn_k.weight", weight(kv, n_embd))
        w.add_tensor(b + "attn_v.weight", weight(kv, n_embd))
        w.add_tensor(b + "attn_output.weight", weight(n_embd, n_embd))
        w.add_tensor(b + "ffn_norm.weight", ones)
        w.add_tensor(b + "ffn_gate.weight", weight(n_ff, n_embd))
        w.add_tensor(b + "ffn_up.weight", weight(n_ff, n_embd))
        w.add_tensor(b + "ffn_down.weight", weight(n_embd, n_ff))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    n_params = n_vocab * n_embd * 2 + n_embd + n_layer * (
        2 * n_embd * n_embd + 2 * kv * n_embd + 3 * n_ff * n_embd + 2 * n_embd)
    print("%s: %.1f M parameters, %.1f MiB, %.1f s" % (
        a.output, n_params / 1e6, os.path.getsize(a.output) / 2**20, time.time() - t0))


if __name__ == "__main__":
    main()
