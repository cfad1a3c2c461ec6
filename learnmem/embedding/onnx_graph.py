"""Build a sentence-embedding ONNX graph for a BERT encoder from safetensors weights.

The weights package we rely on offline ships only `model.safetensors`, so we
write the graph ourselves with `onnx.helper` instead of exporting through
torch. The graph computes what sentence-transformers computes for
all-MiniLM-L6-v2: BERT embeddings, N encoder layers (post-LayerNorm, exact
GELU), mean pooling over the attention mask and L2 normalisation.

Inputs:  input_ids (batch, seq) int64, attention_mask (batch, seq) int64.
Output:  embedding (batch, hidden) float32, unit-norm rows.

The build is deterministic: same weights and same onnx version give the same
bytes (fixed node names, no timestamps, no random ids).
"""

from __future__ import annotations

import json
from pathlib import Path

# Bump when the graph changes so cached builds are rebuilt.
GRAPH_VERSION = 1
OPSET = 17  # first opset with LayerNormalization
IR_VERSION = 8  # what opset 17 needs; keeps the file loadable by older runtimes
MASK_VALUE = -10000.0  # exp(-1e4) underflows to exactly 0 in float32: padding is invisible


def build_onnx_bytes(src_dir: Path) -> bytes:
    """Return the serialized ONNX model built from `src_dir`.

    `src_dir` holds `model.safetensors` and `config.json` (a Hugging Face
    BertModel checkpoint, with or without the `bert.` prefix on weight names).
    """
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from safetensors.numpy import load_file

    config = json.loads((src_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type", "bert") != "bert":
        raise ValueError(f"only BERT models can be built, got model_type={config.get('model_type')!r}")
    if config.get("hidden_act", "gelu") != "gelu":
        raise ValueError(f"only hidden_act='gelu' is supported, got {config.get('hidden_act')!r}")
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    layers = int(config["num_hidden_layers"])
    eps = float(config.get("layer_norm_eps", 1e-12))
    head_dim = hidden // heads

    raw = load_file(str(src_dir / "model.safetensors"))
    # Some checkpoints prefix every name with "bert." (BertFor... heads).
    weights = {k.removeprefix("bert."): v for k, v in raw.items()}

    def w(name: str) -> np.ndarray:
        return np.ascontiguousarray(weights[name], dtype=np.float32)

    inits: list = []
    nodes: list = []

    def const(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op: str, inputs: list[str], name: str, **attrs) -> str:
        # One output per node, named after the node: names stay fixed and readable.
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def linear(x: str, prefix: str, out: str) -> str:
        # torch Linear stores (out, in); MatMul wants (in, out).
        wt = const(f"{prefix}.weight_t", w(f"{prefix}.weight").T)
        b = const(f"{prefix}.bias", w(f"{prefix}.bias"))
        return node("Add", [node("MatMul", [x, wt], f"{out}.matmul"), b], out)

    def layer_norm(x: str, prefix: str, out: str) -> str:
        g = const(f"{prefix}.weight", w(f"{prefix}.weight"))
        b = const(f"{prefix}.bias", w(f"{prefix}.bias"))
        return node("LayerNormalization", [x, g, b], out, axis=-1, epsilon=eps)

    # Shared constants.
    const("c.zero", np.array([0], dtype=np.int64))
    const("c.one", np.array([1], dtype=np.int64))
    const("c.two", np.array([2], dtype=np.int64))
    const("c.axis1", np.array([1], dtype=np.int64))
    const("c.axis_last", np.array([-1], dtype=np.int64))
    const("c.split_heads", np.array([0, 0, heads, head_dim], dtype=np.int64))
    const("c.merge_heads", np.array([0, 0, hidden], dtype=np.int64))
    const("c.f_one", np.array(1.0, dtype=np.float32))
    const("c.f_half", np.array(0.5, dtype=np.float32))
    const("c.mask_value", np.array(MASK_VALUE, dtype=np.float32))
    const("c.inv_sqrt2", np.array(1.0 / np.sqrt(2.0), dtype=np.float32))
    const("c.scale", np.array(1.0 / np.sqrt(head_dim), dtype=np.float32))
    const("c.tiny", np.array(1e-9, dtype=np.float32))
    const("c.norm_eps", np.array(1e-12, dtype=np.float32))

    # Embeddings. token_type_ids are always 0 for single sentences, so type
    # embedding row 0 is folded into the position table (one Add fewer).
    const("emb.word", w("embeddings.word_embeddings.weight"))
    pos_table = w("embeddings.position_embeddings.weight") + w("embeddings.token_type_embeddings.weight")[0]
    const("emb.pos_type", pos_table)
    word = node("Gather", ["emb.word", "input_ids"], "emb.word_gather", axis=0)
    shape = node("Shape", ["input_ids"], "emb.shape")
    seq_len = node("Slice", [shape, "c.one", "c.two"], "emb.seq_len")
    pos = node("Slice", ["emb.pos_type", "c.zero", seq_len, "c.zero"], "emb.pos_slice")
    x = node("Add", [word, pos], "emb.sum")
    x = layer_norm(x, "embeddings.LayerNorm", "emb.ln")

    # Additive attention mask, (batch, 1, 1, seq): 0 for tokens, MASK_VALUE for padding.
    mask_f = node("Cast", ["attention_mask"], "mask.float", to=TensorProto.FLOAT)
    inv = node("Sub", ["c.f_one", mask_f], "mask.inverted")
    add_mask = node("Mul", [inv, "c.mask_value"], "mask.additive2d")
    add_mask = node("Unsqueeze", [add_mask, "c.axis1"], "mask.additive3d")
    add_mask = node("Unsqueeze", [add_mask, "c.axis1"], "mask.additive")

    for i in range(layers):
        p = f"encoder.layer.{i}"
        n = f"l{i}"

        def heads_of(t: str, kind: str, perm: list[int]) -> str:
            r = node("Reshape", [t, "c.split_heads"], f"{n}.{kind}.split")
            return node("Transpose", [r], f"{n}.{kind}.heads", perm=perm)

        q = heads_of(linear(x, f"{p}.attention.self.query", f"{n}.q"), "q", [0, 2, 1, 3])
        k = heads_of(linear(x, f"{p}.attention.self.key", f"{n}.k"), "k", [0, 2, 3, 1])
        v = heads_of(linear(x, f"{p}.attention.self.value", f"{n}.v"), "v", [0, 2, 1, 3])
        scores = node("MatMul", [q, k], f"{n}.scores.raw")
        scores = node("Mul", [scores, "c.scale"], f"{n}.scores.scaled")
        scores = node("Add", [scores, add_mask], f"{n}.scores.masked")
        probs = node("Softmax", [scores], f"{n}.probs", axis=-1)
        ctx = node("MatMul", [probs, v], f"{n}.ctx.heads")
        ctx = node("Transpose", [ctx], f"{n}.ctx.t", perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, "c.merge_heads"], f"{n}.ctx")
        attn = linear(ctx, f"{p}.attention.output.dense", f"{n}.attn_out")
        x = layer_norm(node("Add", [attn, x], f"{n}.attn_res"), f"{p}.attention.output.LayerNorm", f"{n}.attn_ln")

        h = linear(x, f"{p}.intermediate.dense", f"{n}.ff_in")
        # Exact GELU: 0.5 * h * (1 + erf(h / sqrt(2))), as BERT's "gelu".
        erf = node("Erf", [node("Mul", [h, "c.inv_sqrt2"], f"{n}.gelu.div")], f"{n}.gelu.erf")
        g = node("Mul", [node("Mul", [h, "c.f_half"], f"{n}.gelu.half"),
                         node("Add", [erf, "c.f_one"], f"{n}.gelu.one_plus")], f"{n}.gelu")
        out = linear(g, f"{p}.output.dense", f"{n}.ff_out")
        x = layer_norm(node("Add", [out, x], f"{n}.ff_res"), f"{p}.output.LayerNorm", f"{n}.ff_ln")

    # Mean pooling over real tokens, then L2 normalisation.
    m = node("Unsqueeze", [mask_f, "c.axis_last"], "pool.mask")
    summed = node("ReduceSum", [node("Mul", [x, m], "pool.masked"), "c.axis1"], "pool.sum", keepdims=0)
    count = node("ReduceSum", [m, "c.axis1"], "pool.count", keepdims=0)
    count = node("Max", [count, "c.tiny"], "pool.count_clamped")
    mean = node("Div", [summed, count], "pool.mean")
    # Opset 17's ReduceL2 still takes axes as an attribute (ReduceSum moved to an input in 13).
    norm = node("ReduceL2", [mean], "norm.l2", axes=[-1], keepdims=1)
    norm = node("Max", [norm, "c.norm_eps"], "norm.clamped")
    node("Div", [mean, norm], "embedding")

    graph = helper.make_graph(
        nodes,
        "learnmem_sentence_encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", hidden])],
        initializer=inits,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="learnmem",
        producer_version=str(GRAPH_VERSION),
    )
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model.SerializeToString(deterministic=True)
